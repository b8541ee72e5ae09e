import { BATCH_MAX_ITEMS, BatchResult, parseIccid, type BatchItem } from "@iccid/core";
import type { IccidClient, RequestOptions } from "./client.js";
import { APIUserAbortError, ResponseValidationError } from "./errors.js";
import { SharedBackoff } from "./retry.js";

// Streams any number of ICCIDs through the batch endpoint. An ordered window of at most `concurrency`
// chunks: each chunk's request starts as soon as the chunk is read, the head chunk is awaited and yielded,
// and only then is the window topped up. So the source is read no further than (concurrency + 1) chunks
// ahead of what the consumer has taken, whatever its length, and a slow consumer slows the reading.

/** A batch item whose `index` is its position in the whole source (not in its chunk). */
export type BatchAllItem = BatchItem;

export interface BatchAllProgress {
  /** Items taken from the source so far. */
  read: number;
  /** Items yielded (or about to be) so far. */
  done: number;
  ok: number;
  failed: number;
  /** Batch requests answered so far. */
  requests: number;
}

export interface BatchAllOptions extends RequestOptions {
  /** Batch requests in flight at once. Default 4. `timeoutMs`, `deadlineMs` and `maxRetries` apply per request. */
  concurrency?: number;
  /** ICCIDs per request, at most 1000 (the default). */
  chunkSize?: number;
  /** Called as each chunk's results are handed out, in order. */
  onProgress?: (progress: BatchAllProgress) => void;
}

interface Chunk {
  /** Source position of the chunk's first item. */
  start: number;
  /** The chunk's items in order; the slots of items sent to the server are filled in from its answer. */
  items: (BatchAllItem | undefined)[];
  /** What is sent, and the chunk offset each sent item belongs at. */
  send: string[];
  offsets: number[];
}

// A valid ICCID is at most 22 characters; written with separators it rarely needs more than 64. Longer
// inputs go out normalised so that a chunk never nears the server's per-item (256) and body limits.
const MAX_WIRE_INPUT = 64;

function clampInt(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

export async function* batchAll(
  client: IccidClient,
  source: Iterable<string> | AsyncIterable<string>,
  options: BatchAllOptions = {},
): AsyncGenerator<BatchAllItem, void, undefined> {
  const { concurrency: rawConcurrency, chunkSize: rawChunkSize, onProgress, signal, ...requestOptions } = options;
  const concurrency = clampInt(rawConcurrency ?? 4, 1, 64, "concurrency");
  const chunkSize = clampInt(rawChunkSize ?? BATCH_MAX_ITEMS, 1, BATCH_MAX_ITEMS, "chunkSize");
  const iterator: Iterator<string> | AsyncIterator<string> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  // Ends requests in flight when the consumer stops early, the caller aborts, or one chunk fails for good.
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  const backoff = new SharedBackoff();
  const progress: BatchAllProgress = { read: 0, done: 0, ok: 0, failed: 0, requests: 0 };
  const window: Promise<Chunk>[] = [];
  let exhausted = false;
  let failure: unknown;
  let sourceError: { error: unknown } | undefined;

  async function readChunk(): Promise<Chunk | undefined> {
    const chunk: Chunk = { start: progress.read, items: [], send: [], offsets: [] };
    while (chunk.items.length < chunkSize) {
      let next: IteratorResult<string>;
      try {
        next = await iterator.next();
      } catch (error) {
        // Thrown after the items before it are handed out, so the caller knows exactly where reading stopped.
        sourceError = { error };
        exhausted = true;
        break;
      }
      if (next.done) {
        exhausted = true;
        break;
      }
      const index = progress.read++;
      const parsed = parseIccid(next.value);
      if (parsed.ok) {
        chunk.offsets.push(chunk.items.length);
        chunk.send.push(parsed.input.length <= MAX_WIRE_INPUT ? parsed.input : parsed.iccid);
        chunk.items.push(undefined);
      } else {
        chunk.items.push({ index, ok: false, input: parsed.input, error: parsed.error });
      }
    }
    return chunk.items.length > 0 ? chunk : undefined;
  }

  async function send(chunk: Chunk): Promise<Chunk> {
    if (chunk.send.length === 0) return chunk; // nothing well-formed: no request, no quota
    const answer = await client.call(
      { method: "POST", path: "/iccid/batch", auth: "api_key", body: { iccids: chunk.send }, schema: BatchResult, backoff },
      { ...requestOptions, signal: stop.signal },
    );
    progress.requests++;
    if (answer.results.length !== chunk.send.length) {
      throw new ResponseValidationError({
        what: "the answer to POST /api/v1/iccid/batch",
        status: 200,
        issues: [{ path: "results", message: `expected ${chunk.send.length} items, got ${answer.results.length}` }],
        body: answer,
      });
    }
    answer.results.forEach((item, i) => {
      const offset = chunk.offsets[i]!;
      chunk.items[offset] = { ...item, index: chunk.start + offset };
    });
    return chunk;
  }

  async function topUp(): Promise<void> {
    while (!exhausted && window.length < concurrency && failure === undefined) {
      const chunk = await readChunk();
      if (!chunk) break;
      const pending = send(chunk);
      // Marks the rejection handled now (it is awaited later, in order) and stops the other requests at once.
      pending.catch((error: unknown) => {
        failure ??= error;
        stop.abort();
      });
      window.push(pending);
    }
  }

  try {
    await topUp();
    while (window.length > 0) {
      if (signal?.aborted) throw new APIUserAbortError(signal.reason);
      let chunk: Chunk;
      try {
        chunk = await window.shift()!;
      } catch (error) {
        throw failure ?? error; // the first failure, not the aborts it caused in its neighbours
      }
      await topUp();
      for (const item of chunk.items) item!.ok ? progress.ok++ : progress.failed++;
      progress.done += chunk.items.length;
      onProgress?.({ ...progress });
      for (const item of chunk.items) {
        if (signal?.aborted) throw new APIUserAbortError(signal.reason);
        yield item!;
      }
    }
    if (sourceError) throw sourceError.error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    stop.abort();
    await iterator.return?.();
  }
}
