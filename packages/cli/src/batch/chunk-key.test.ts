import { describe, expect, it } from "vitest";
import { chunkIdempotencyKey } from "./chunk-key.js";

describe("chunkIdempotencyKey", () => {
  const chunk = { start: 1000, iccids: ["89441000000000000018", "89441000000000000026"] };

  it("is the same for the same rows at the same place, asked for in the same form", () => {
    expect(chunkIdempotencyKey({ ...chunk, iccids: [...chunk.iccids] }, "csv")).toBe(chunkIdempotencyKey(chunk, "csv"));
    expect(chunkIdempotencyKey(chunk, "csv")).toMatch(/^iccid-batch-[A-Za-z0-9_-]{43}$/);
  });

  it("differs for other rows, another place in the input, or another form", () => {
    const key = chunkIdempotencyKey(chunk, "csv");
    expect(chunkIdempotencyKey({ ...chunk, start: 0 }, "csv")).not.toBe(key);
    expect(chunkIdempotencyKey({ ...chunk, iccids: chunk.iccids.slice(0, 1) }, "csv")).not.toBe(key);
    expect(chunkIdempotencyKey({ ...chunk, iccids: ["89441000000000000018\n89441000000000000026"] }, "csv")).not.toBe(key);
    expect(chunkIdempotencyKey(chunk, "jsonl")).not.toBe(key);
  });
});
