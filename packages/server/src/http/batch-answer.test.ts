import { BatchResult, type BatchItem } from "@iccid/core";
import { EventEmitter } from "node:events";
import type { ParameterizedContext } from "koa";
import { describe, expect, it } from "vitest";
import { IccidDecoder } from "../decode/decoder.js";
import { AnswerBytes } from "./answer-bytes.js";
import { answerBatch, writeBatchAnswer } from "./batch-answer.js";
import { jsonEncoding } from "./json-encoding.js";
import type { AppState } from "./state.js";
import { givenBackBuffer, holdSpareBuffers, largeAnswer } from "../../test-support/spare-buffers.js";

const decoder = new IccidDecoder();

/** Decodes `inputs` the way a batch does, yielding items one by one; also keeps them, to compare. */
function* decodeAll(inputs: string[], results: BatchItem[]) {
  for (const [index, input] of inputs.entries()) {
    const outcome = decoder.decode(input);
    const item: BatchItem = outcome.ok ? { index, ok: true, result: outcome.result } : { index, ok: false, input, error: outcome.error };
    results.push(item);
    yield item;
  }
  return { summary: { total: inputs.length, ok: 0, failed: 0, valid: 0, invalid: 0, unique: inputs.length } };
}

describe("writeBatchAnswer", () => {
  it("writes the bytes of JSON.stringify(BatchResult) and of the schema's encoder, item by item", async () => {
    const inputs = ["8944 1000 0000 0000 0018", "89441000000000000019", "not an iccid", "8901410\u00e9", '89"\\', "8988310000000000000"];
    for (const batch of [inputs, inputs.slice(0, 1), Array.from({ length: 1000 }, (_, i) => inputs[i % inputs.length]!)]) {
      const results: BatchItem[] = [];
      const bytes = new AnswerBytes();
      const { summary } = writeBatchAnswer(decodeAll(batch, results), bytes);
      const value = { results, summary };
      expect(bytes.bytes().toString("utf8")).toBe(JSON.stringify(value));
      expect(bytes.bytes().toString("utf8")).toBe(jsonEncoding(BatchResult)(value));
      bytes.release();
    }
  });

  it("writes results in runs long enough to go in whole, and every run, of alike or changing items, well short of 128 KiB", () => {
    /** AnswerBytes that keeps the length of every piece added. */
    class Pieces extends AnswerBytes {
      readonly lengths: number[] = [];
      override add(piece: string): void {
        this.lengths.push(piece.length);
        super.add(piece);
      }
    }
    // a failed item (about 130 characters), a GB result (about 530), a US result with its candidates (about 1,170)
    const [failed, gb, us] = ["89ABC", "89441000000000000018", "89310380123456789012"];
    const alike = (input: string) => Array<string>(1000).fill(input);
    const changing = (first: string, then: string) => [...Array<string>(64).fill(first), ...Array<string>(936).fill(then)];
    for (const inputs of [alike(failed), alike(gb), alike(us), changing(failed, us), changing(gb, us), changing(us, failed)]) {
      const results: BatchItem[] = [];
      const bytes = new Pieces();
      const { summary } = writeBatchAnswer(decodeAll(inputs, results), bytes);
      const runs = bytes.lengths.filter((length) => length > 1).slice(1, -1); // the items' runs: not the opening, separators, the close
      expect(runs.length).toBeGreaterThan(1);
      for (const run of runs) expect(run).toBeLessThan(120 * 1024);
      // results sized from the run before; the last holds what is left
      if (inputs[0] === inputs[999] && inputs[0] !== failed) for (const run of runs.slice(1, -1)) expect(run).toBeGreaterThanOrEqual(32 * 1024);
      expect(bytes.bytes().toString("utf8")).toBe(JSON.stringify({ results, summary }));
      bytes.release();
    }
  });

  it("writes an empty results list when nothing is handed over", async () => {
    const bytes = new AnswerBytes();
    writeBatchAnswer(decodeAll([], []), bytes);
    expect(JSON.parse(bytes.bytes().toString("utf8"))).toEqual({ results: [], summary: { total: 0, ok: 0, failed: 0, valid: 0, invalid: 0, unique: 0 } });
  });
});

describe("answerBatch", () => {
  it("gives the answer's buffer back at once when the batch's charge is refused", async () => {
    const inputs = Array.from({ length: 200 }, (_, i) => `8944100000000${String(i).padStart(6, "0")}`); // past one piece, short of a buffer
    // Every spare buffer held, then one given back: the batch's answer is written into that one.
    const held = holdSpareBuffers();
    const buffer = givenBackBuffer();
    const response = new EventEmitter();
    const ctx = { get: () => "", res: response, state: {} } as unknown as ParameterizedContext<AppState>;
    const quotaExceeded = new Error("over the quota");
    function* refused() {
      const { summary } = yield* decodeAll(inputs, []);
      return { summary, charged: Promise.reject(quotaExceeded) };
    }
    await expect(answerBatch(ctx, refused())).rejects.toBe(quotaExceeded);
    // Before the response closes, the next large answer gets the refused batch's buffer.
    const next = largeAnswer();
    expect(next.bytes().buffer === buffer).toBe(true);
    response.emit("close");
    for (const bytes of [next, ...held]) bytes.discard();
  });
});
