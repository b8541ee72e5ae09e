import { BATCH_MAX_ITEMS, ICCID_MAX_LENGTH, ICCID_MIN_LENGTH, parseIccid, wireInput } from "@iccid/core/grammar";
import { BATCH_CALL, CSV_ROWS, ITEMS, type BatchAllItem, type Chunk, type ChunkForm } from "./batch-chunk.js";
import { arrayReader, itemReader, iteratorOf, wholeArrayReader, type BatchAllChunkSource, type Reader } from "./batch-source.js";
import type { CsvRows } from "./csv-rows.js";
import type { IccidClient, RequestOptions } from "./client.js";
import { isAPIUserAbortError } from "./error-guards.js";
import { APIUserAbortError } from "./errors.js";
import { SharedBackoff } from "./retry.js";

// Streams any number of ICCIDs through the batch endpoint. An ordered window of at most `concurrency`
// chunks: each chunk's request starts as soon as the chunk is read, the head chunk is awaited and handed
// out, and only then is the window topped up. So the source is read no further than (concurrency + 1)
// chunks ahead of what the consumer has taken, whatever its length, and a slow consumer slows the reading.
//
// The engine works in whole chunks: `batchAllChunks` hands each chunk's items out as one array (one await
// per 1000 items, and its source may come in arrays too, such as the rows of a file read in blocks), and
// `batchAll` is a thin per-item layer on top of it.

export type { BatchAllItem } from "./batch-chunk.js";

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

/** Which chunk a batch request carries: its first item's position in the source, and the ICCIDs sent. */
export interface BatchAllChunk {
  start: number;
  iccids: readonly string[];
}

export interface BatchAllOptions extends Omit<RequestOptions, "idempotencyKey"> {
  /**
   * The Idempotency-Key of each chunk's request (1 to 255 printable ASCII characters); default: a random
   * one per request, the same on its retries. A key derived from what the chunk is lets a run started again
   * after a crash be answered, not charged, for the chunks the server answered before.
   */
  idempotencyKeyOf?: (chunk: BatchAllChunk) => string;
  /** Batch requests in flight at once. Default 4. `timeoutMs`, `deadlineMs` and `maxRetries` apply per request. */
  concurrency?: number;
  /** ICCIDs per request, at most 1000 (the default). */
  chunkSize?: number;
  /** Called as each chunk's results are handed out, in order. */
  onProgress?: (progress: BatchAllProgress) => void;
}

/** A chunk the server answered that the stream could not hand out in order (see BatchAllChunksOptions.keep). */
export interface BatchAllKept<T> {
  /** Source position of the chunk's first item. */
  start: number;
  value: T;
}

/** The options of batchAllChunks and batchAllCsv, which hand out whole chunks of type T. */
export interface BatchAllChunksOptions<T> extends BatchAllOptions {
  /**
   * Each array of the source is one request (up to `chunkSize` ICCIDs), so that the caller decides where
   * chunks are cut; an empty array is passed over. Default false: the arrays are read across their bounds.
   */
  arraysAreChunks?: boolean;
  /**
   * When given, nothing the server answered is dropped when the stream ends early: a chunk that fails for
   * good no longer cancels the requests in flight; they are awaited, the chunks before the first one
   * without a response are handed out as usual, and each answered chunk after it is handed to `keep`, in
   * order. Then the stream throws the first failure.
   */
  keep?: (kept: BatchAllKept<T>) => void;
}

export type { BatchAllChunkSource } from "./batch-source.js";

function clampInt(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/**
 * True for what nearly every input is, an ICCID written as plain digits: 18 to 22 of them starting with
 * the telecom MII 89. parseIccid accepts all of those as they are (nothing to normalise); this says so
 * without its allocations. Anything else goes through parseIccid.
 */
function isPlainIccid(value: string): boolean {
  const n = value.length;
  if (n < ICCID_MIN_LENGTH || n > ICCID_MAX_LENGTH || value.charCodeAt(0) !== 56 || value.charCodeAt(1) !== 57) return false;
  for (let i = 2; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The engine: chunks in source order, decoded into the form the caller asked for. */
async function* runChunks<T>(
  client: IccidClient,
  iterator: Iterator<unknown> | AsyncIterator<unknown>,
  read: Reader,
  options: Omit<BatchAllChunksOptions<T>, "arraysAreChunks">,
  form: ChunkForm<T>,
): AsyncGenerator<T, void, undefined> {
  const { concurrency: rawConcurrency, chunkSize: rawChunkSize, onProgress, signal, idempotencyKeyOf, keep, ...requestOptions } = options;
  const concurrency = clampInt(rawConcurrency ?? 4, 1, 64, "concurrency");
  const chunkSize = clampInt(rawChunkSize ?? BATCH_MAX_ITEMS, 1, BATCH_MAX_ITEMS, "chunkSize");
  const { retrySignal } = requestOptions;
  // Ends requests in flight when the consumer stops early, the caller aborts, or one chunk fails for good.
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  const backoff = new SharedBackoff();
  const progress: BatchAllProgress = { read: 0, done: 0, ok: 0, failed: 0, requests: 0 };
  const window: Promise<Chunk>[] = [];
  let exhausted = false;
  let failure: { error: unknown } | undefined;
  let sourceError: { error: unknown } | undefined;

  async function readChunk(): Promise<Chunk | undefined> {
    const chunk: Chunk = { start: progress.read, items: [], send: [], offsets: [] };
    const { items, send, offsets } = chunk;
    const into = (value: string) => {
      const offset = items.length;
      if (isPlainIccid(value)) {
        offsets.push(offset);
        send.push(value);
        items.push(undefined);
        return;
      }
      const parsed = parseIccid(value);
      if (parsed.ok) {
        offsets.push(offset);
        send.push(wireInput(parsed));
        items.push(undefined);
      } else {
        items.push({ index: chunk.start + offset, ok: false, input: parsed.input, error: parsed.error });
      }
    };
    try {
      if (!(await read(chunkSize, into))) exhausted = true;
    } catch (error) {
      // Thrown after the items before it are handed out, so the caller knows exactly where reading stopped.
      sourceError = { error };
      exhausted = true;
    }
    progress.read += items.length;
    return items.length > 0 ? chunk : undefined;
  }

  async function send(chunk: Chunk): Promise<Chunk> {
    if (chunk.send.length === 0) return chunk; // nothing well-formed: no request, no quota
    const call = { ...BATCH_CALL, body: { iccids: chunk.send }, backoff, accept: form.accept };
    const idempotencyKey = idempotencyKeyOf?.({ start: chunk.start, iccids: chunk.send });
    chunk.response = await client.callBytes(call, { ...requestOptions, signal: stop.signal, idempotencyKey });
    progress.requests++;
    chunk.send = [];
    return chunk;
  }

  async function topUp(): Promise<void> {
    // Once retrySignal fires no new chunk starts: those on the wire are still handed out (or kept).
    while (!exhausted && window.length < concurrency && failure === undefined && !retrySignal?.aborted) {
      const chunk = await readChunk();
      if (!chunk) break;
      const pending = send(chunk);
      // Marks the rejection handled now (it is awaited later, in order) and stops the other requests at once,
      // unless the chunk gave up waiting to retry (retrySignal) or the caller keeps what was answered: then
      // the responses on the wire are still taken.
      pending.catch((error: unknown) => {
        failure ??= { error };
        if (!keep && !isAPIUserAbortError(error)) stop.abort();
      });
      window.push(pending);
    }
  }

  /** After a failure, with `keep`: every chunk still on the wire is awaited, and those answered are kept. */
  async function keepTheRest(): Promise<void> {
    while (window.length > 0 && !signal?.aborted) {
      const chunk = await window.shift()!.catch(() => undefined);
      let value: T | undefined;
      try {
        if (chunk) value = form.decode(chunk).value;
      } catch {
        // Off the contract: nothing that could be written, as for a chunk without a response.
      }
      if (chunk && value !== undefined) keep!({ start: chunk.start, value });
    }
  }

  try {
    await topUp();
    while (window.length > 0) {
      if (signal?.aborted) throw new APIUserAbortError(signal.reason);
      let chunk: Chunk;
      let decoded: { value: T; ok: number };
      try {
        chunk = await window.shift()!;
      } catch (error) {
        failure ??= { error };
        if (keep) await keepTheRest();
        throw failure.error; // the first failure, not the aborts it caused in its neighbours
      }
      try {
        decoded = form.decode(chunk);
      } catch (error) {
        if (!keep) throw error;
        failure ??= { error };
        await keepTheRest();
        throw failure.error;
      }
      const { value, ok } = decoded;
      await topUp();
      progress.ok += ok;
      progress.failed += chunk.items.length - ok;
      progress.done += chunk.items.length;
      onProgress?.({ ...progress });
      yield value;
    }
    if (sourceError) throw sourceError.error;
    if (!exhausted && retrySignal?.aborted) throw new APIUserAbortError(retrySignal.reason);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    stop.abort();
    await iterator.return?.();
  }
}

/** The reader of a source of arrays, and the options the engine takes. */
function readArrays<T>(source: BatchAllChunkSource, options: BatchAllChunksOptions<T>) {
  const { arraysAreChunks, ...rest } = options;
  const iterator = iteratorOf(source);
  return { iterator, read: arraysAreChunks ? wholeArrayReader(iterator) : arrayReader(iterator), rest };
}

/**
 * Like `batchAll`, in whole chunks: takes the ICCIDs in arrays and yields each answered chunk's items as
 * one array (up to `chunkSize` items, in source order, `index` counting from the source's start). For
 * callers that handle many items per step, such as a file converter: no promise per item on either side.
 */
export async function* batchAllChunks(
  client: IccidClient,
  source: BatchAllChunkSource,
  options: BatchAllChunksOptions<BatchAllItem[]> = {},
): AsyncGenerator<BatchAllItem[], void, undefined> {
  const { iterator, read, rest } = readArrays(source, options);
  yield* runChunks(client, iterator, read, rest, ITEMS);
}

/**
 * Like `batchAllChunks`, with the responses as CSV: yields each answered chunk as its lookup rows, the
 * server's bytes located but not parsed (see CsvRows). For writing the rows into a file as they are.
 */
export async function* batchAllCsv(
  client: IccidClient,
  source: BatchAllChunkSource,
  options: BatchAllChunksOptions<CsvRows> = {},
): AsyncGenerator<CsvRows, void, undefined> {
  const { iterator, read, rest } = readArrays(source, options);
  yield* runChunks(client, iterator, read, rest, CSV_ROWS);
}

export async function* batchAll(
  client: IccidClient,
  source: Iterable<string> | AsyncIterable<string>,
  options: BatchAllOptions = {},
): AsyncGenerator<BatchAllItem, void, undefined> {
  const isAsync = Symbol.asyncIterator in source;
  const iterator = iteratorOf(source);
  const { signal } = options;
  for await (const items of runChunks(client, iterator, itemReader(iterator, isAsync), options, ITEMS)) {
    for (const item of items) {
      if (signal?.aborted) throw new APIUserAbortError(signal.reason);
      yield item;
    }
  }
}
