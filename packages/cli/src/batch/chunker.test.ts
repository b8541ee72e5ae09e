import { describe, expect, it } from "vitest";
import { chunksOf, type StoredChunk } from "./chunker.js";

/** Input blocks of one-cell rows "0", "1", …, in blocks of `block` rows. */
async function* rows(n: number, block: number): AsyncGenerator<string[][]> {
  for (let at = 0; at < n; at += block) yield Array.from({ length: Math.min(block, n - at) }, (_, i) => [String(at + i)]);
}

const stored = (start: number, count: number): StoredChunk => ({
  start,
  iccids: Array.from({ length: count }, (_, i) => String(start + i)),
  answers: { kind: "jsonl", items: [] },
});

async function cut(n: number, skip: number, kept: StoredChunk[], size = 4) {
  const out: string[] = [];
  for await (const chunk of chunksOf(rows(n, 3), { column: 0, skip, stored: kept, size })) out.push(`${chunk.stored ? "stored " : ""}${chunk.iccids.join(",")}`);
  return out;
}

describe("cutting the input into chunks", () => {
  it("skips the rows already written, cuts at the batch size and at the edges of stored answers", async () => {
    const kept = [stored(5, 3), stored(12, 2)];
    expect(await cut(16, 2, kept)).toEqual(["2,3,4", "stored 5,6,7", "8,9,10,11", "stored 12,13", "14,15"]);
    expect(kept).toEqual([]); // each handed out is taken from the list
  });

  it("refuses stored answers that are not for these rows", async () => {
    const wrong = { ...stored(4, 2), iccids: ["4", "x"] };
    await expect(cut(10, 0, [wrong])).rejects.toThrow(/row 6 of the input is not the one an earlier run answered/);
    await expect(cut(5, 0, [stored(4, 3)])).rejects.toThrow(/the input ends at row 5, inside rows an earlier run answered/);
  });
});
