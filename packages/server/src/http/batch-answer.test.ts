import { BatchResult, type BatchItem } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { IccidDecoder } from "../decode/decoder.js";
import { encodeBatchAnswer } from "./batch-answer.js";
import { jsonEncoder } from "./json-encoder.js";

const decoder = new IccidDecoder();

/** Decodes `inputs` the way a batch does, handing items over one by one; also keeps them, to compare. */
function decodeAll(inputs: string[], onItem: (item: BatchItem) => void) {
  const results: BatchItem[] = [];
  inputs.forEach((input, index) => {
    const outcome = decoder.decode(input);
    const item: BatchItem = outcome.ok ? { index, ok: true, result: outcome.result } : { index, ok: false, input, error: outcome.error };
    results.push(item);
    onItem(item);
  });
  const summary = { total: inputs.length, ok: 0, failed: 0, valid: 0, invalid: 0, unique: inputs.length };
  return { summary, results };
}

describe("encodeBatchAnswer", () => {
  it("writes the bytes of JSON.stringify(BatchResult) and of the schema's encoder, item by item", () => {
    const inputs = ["8944 1000 0000 0000 0018", "89441000000000000019", "not an iccid", "8901410\u00e9", '89"\\', "8988310000000000000"];
    for (const batch of [inputs, inputs.slice(0, 1), Array.from({ length: 1000 }, (_, i) => inputs[i % inputs.length]!)]) {
      const { answer, decoded } = encodeBatchAnswer((onItem) => decodeAll(batch, onItem));
      const value = { results: decoded.results, summary: decoded.summary };
      expect(answer.body.toString("utf8")).toBe(JSON.stringify(value));
      expect(answer.body.toString("utf8")).toBe(jsonEncoder(BatchResult).encode(value));
      answer.release?.();
    }
  });

  it("writes an empty results list when nothing is handed over", () => {
    const { answer } = encodeBatchAnswer(() => ({ summary: { total: 0, ok: 0, failed: 0, valid: 0, invalid: 0, unique: 0 } }));
    expect(JSON.parse(answer.body.toString("utf8"))).toEqual({ results: [], summary: { total: 0, ok: 0, failed: 0, valid: 0, invalid: 0, unique: 0 } });
  });
});
