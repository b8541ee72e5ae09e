import { BatchItem, BatchResult, BatchSummary } from "@iccid/core";
import { jsonEncoder } from "./json-encoder.js";
import { encodePieces, type EncodedJson } from "./json-response.js";

const itemJson = jsonEncoder(BatchItem);
const summaryJson = jsonEncoder(BatchSummary);

// The answer's two fields, in the order BatchResult declares them (the order JSON.stringify would write).
const [RESULTS, SUMMARY] = Object.keys(BatchResult.shape) as ["results", "summary"];
const OPEN = `{${JSON.stringify(RESULTS)}:[`;
const CLOSE_RESULTS = `],${JSON.stringify(SUMMARY)}:`;

/**
 * A batch's answer written while it is decoded: `decode` hands over each item in order, and each is
 * encoded at once, so no result lives past its turn. The bytes are those of JSON.stringify(BatchResult).
 * Answers with the bytes and what `decode` returned (the summary it encodes last, and anything else).
 */
export function encodeBatchAnswer<T extends { summary: BatchSummary }>(decode: (onItem: (item: BatchItem) => void) => T): { answer: EncodedJson; decoded: T } {
  let decoded: T | undefined;
  const answer = encodePieces((add) => {
    let separator = OPEN;
    decoded = decode((item) => {
      add(separator + itemJson.encode(item));
      separator = ",";
    });
    add(`${separator === OPEN ? OPEN : ""}${CLOSE_RESULTS}${summaryJson.encode(decoded.summary)}}`);
  });
  return { answer, decoded: decoded! };
}
