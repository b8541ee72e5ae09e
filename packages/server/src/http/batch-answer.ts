import { BatchItem, BatchResult, BatchSummary, csvLine, LOOKUP_ROW_COLUMNS, lookupRowCsv } from "@iccid/core";
import type { Context } from "koa";
import { jsonEncoder } from "./json-encoder.js";
import { encodePieces, JSON_CONTENT_TYPE, type EncodedAnswer } from "./json-response.js";

const itemJson = jsonEncoder(BatchItem);
const summaryJson = jsonEncoder(BatchSummary);

// The answer's two fields, in the order BatchResult declares them (the order JSON.stringify would write).
const [RESULTS, SUMMARY] = Object.keys(BatchResult.shape) as ["results", "summary"];
const OPEN = `{${JSON.stringify(RESULTS)}:[`;
const CLOSE_RESULTS = `],${JSON.stringify(SUMMARY)}:`;

/** The batch answer's two forms: the BatchResult JSON, or CSV with one lookup row per input (docs/api.md). */
export type BatchAnswerForm = "json" | "csv";

/** The Content-Type of each form. */
export const BATCH_CONTENT_TYPE: Record<BatchAnswerForm, string> = { json: JSON_CONTENT_TYPE, csv: "text/csv; charset=utf-8; header=present" };
const CSV_HEADER = csvLine(LOOKUP_ROW_COLUMNS);

/** CSV when the request's Accept prefers text/csv to application/json; JSON otherwise (no Accept, any other). */
export function batchAnswerForm(ctx: Context): BatchAnswerForm {
  return ctx.get("Accept") !== "" && ctx.accepts("application/json", "text/csv") === "text/csv" ? "csv" : "json";
}

/**
 * A batch's answer written while it is decoded: `decode` hands over each item in order, and each is
 * encoded at once, so no result lives past its turn. As JSON, the bytes are those of
 * JSON.stringify(BatchResult); as CSV, the header line and each item's lookup row (core's lookupRowCsv).
 * Answers with the bytes and what `decode` returned (the summary JSON encodes last, and anything else).
 */
export function encodeBatchAnswer<T extends { summary: BatchSummary }>(
  decode: (onItem: (item: BatchItem) => void) => T,
  form: BatchAnswerForm = "json",
): { answer: EncodedAnswer; decoded: T } {
  let decoded: T | undefined;
  const answer = encodePieces((add) => {
    if (form === "csv") {
      add(CSV_HEADER);
      decoded = decode((item) => add(lookupRowCsv(item) + "\n"));
      return;
    }
    let separator = OPEN;
    decoded = decode((item) => {
      add(separator + itemJson.encode(item));
      separator = ",";
    });
    add(`${separator === OPEN ? OPEN : ""}${CLOSE_RESULTS}${summaryJson.encode(decoded.summary)}}`);
  });
  return { answer, decoded: decoded! };
}
