import type { ChunkAnswers } from "./answers.js";
import type { Chunk } from "./chunker.js";

export interface WindowOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Asks the server for a chunk's answers. */
  ask(chunk: Chunk): Promise<ChunkAnswers>;
  /** Writes an answered chunk; chunks come in input order, with no gap before them. */
  write(chunk: Chunk, answers: ChunkAnswers): Promise<void>;
  /** Takes an answered chunk that cannot be written because an earlier one has no answer (for the resume state). */
  keep(chunk: Chunk, answers: ChunkAnswers): void;
  /** True once the run is to stop (Ctrl-C): no new request starts, those in flight are waited for. */
  stopping(): boolean;
}

type Settled = { ok: true; answers: ChunkAnswers } | { ok: false };

/**
 * Runs chunks through the server, `concurrency` requests at a time, writing the answers in input order.
 * The rule it keeps: an answer the server gave (and charged) is never thrown away. When a request fails
 * for good (quota, rate limit with --no-wait, network) or the run is stopping, no new request starts,
 * every request in flight is waited for, the answered chunks before the first unanswered one are written,
 * and the answered chunks after it go to `keep`. Then the first failure is thrown.
 */
export async function runWindow(chunks: AsyncIterator<Chunk>, options: WindowOptions): Promise<void> {
  const window: { chunk: Chunk; settled: Promise<Settled> }[] = [];
  let failure: { error: unknown } | undefined;
  let exhausted = false;

  const start = (chunk: Chunk): Promise<Settled> => {
    if (chunk.stored) return Promise.resolve({ ok: true, answers: chunk.stored });
    return options.ask(chunk).then(
      (answers) => ({ ok: true, answers }),
      (error: unknown) => {
        failure ??= { error };
        return { ok: false };
      },
    );
  };

  async function topUp(): Promise<void> {
    try {
      while (!exhausted && failure === undefined && !options.stopping() && window.length < options.concurrency) {
        const next = await chunks.next();
        if (next.done) exhausted = true;
        else window.push({ chunk: next.value, settled: start(next.value) });
      }
    } catch (error) {
      // The input could not be read further: what was read is still answered and written.
      failure ??= { error };
    }
  }

  await topUp();
  let gap = false;
  while (window.length > 0) {
    const { chunk, settled } = window.shift()!;
    const answer = await settled;
    if (!answer.ok) gap = true;
    else if (gap) options.keep(chunk, answer.answers);
    else await options.write(chunk, answer.answers);
    if (!gap) await topUp();
  }
  if (failure) throw failure.error;
}
