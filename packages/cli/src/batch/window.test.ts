import { describe, expect, it } from "vitest";
import type { ChunkAnswers } from "./answers.js";
import type { Chunk } from "./chunker.js";
import { runWindow } from "./window.js";

const chunk = (start: number): Chunk => ({ start, cells: [[String(start)]], iccids: [String(start)] });
const answers = (start: number): ChunkAnswers => ({ kind: "jsonl", items: [{ index: start, ok: false, input: String(start), error: { code: "invalid_mii", message: "m" } }] });

async function* chunks(n: number): AsyncGenerator<Chunk> {
  for (let i = 0; i < n; i++) yield chunk(i);
}

/** Runs the window over `n` chunks whose answers come back in `order`; the chunks in `refused` fail. */
async function run(n: number, concurrency: number, order: number[], refused: number[] = [], stopAfter?: number) {
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const asked: number[] = [];
  const written: number[] = [];
  const kept: number[] = [];
  const ask = (c: Chunk) =>
    new Promise<ChunkAnswers>((resolve, reject) => {
      asked.push(c.start);
      pending.set(c.start, { resolve: () => resolve(answers(c.start)), reject });
    });
  const done = runWindow(chunks(n), {
    concurrency,
    ask,
    write: async (c) => void written.push(c.start),
    keep: (c) => kept.push(c.start),
    stopping: () => stopAfter !== undefined && written.length >= stopAfter,
  }).then(
    () => undefined,
    (error: Error) => error.message,
  );
  for (const start of order) {
    while (!pending.has(start)) await new Promise((resolve) => setTimeout(resolve, 1));
    if (refused.includes(start)) pending.get(start)!.reject(new Error(`refused ${start}`));
    else pending.get(start)!.resolve();
  }
  return { error: await done, asked, written, kept };
}

describe("the request window", () => {
  it("writes answers in input order whatever order they come in", async () => {
    expect(await run(6, 3, [2, 1, 0, 5, 3, 4])).toEqual({ error: undefined, asked: [0, 1, 2, 3, 4, 5], written: [0, 1, 2, 3, 4, 5], kept: [] });
  });

  it("on a refusal starts nothing new, waits for every request in flight, writes up to the gap and keeps the rest", async () => {
    const result = await run(10, 6, [5, 2, 4, 0, 3, 1], [2]);
    expect(result).toEqual({ error: "refused 2", asked: [0, 1, 2, 3, 4, 5], written: [0, 1], kept: [3, 4, 5] });
  });

  it("when stopping (Ctrl-C), finishes and writes the requests in flight, and asks for no more", async () => {
    const result = await run(10, 3, [1, 0, 2], [], 1);
    expect(result).toEqual({ error: undefined, asked: [0, 1, 2], written: [0, 1, 2], kept: [] });
  });
});
