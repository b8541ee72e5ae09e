import { BatchResult as BatchResultSchema } from "@iccid/core";
import { BATCH_MAX_ITEMS, ICCID_MAX_LENGTH, ICCID_MIN_LENGTH, parseIccid, wireInput } from "@iccid/core/grammar";
import type { BatchItem, BatchResult } from "@iccid/core/types";
import { checkedBody, invalidResponse } from "./response-body.js";
import { arrayReader, itemReader, iteratorOf, type BatchAllChunkSource, type Reader } from "./batch-source.js";
import { CsvRows, csvRowsOf } from "./csv-rows.js";
import type { IccidClient, RequestOptions, RequestSpec } from "./client.js";
import { APIUserAbortError, isAPIUserAbortError } from "./errors.js";
import { SharedBackoff } from "./retry.js";
import type { HttpResponse } from "./transport.js";

// Streams any number of ICCIDs through the batch endpoint. An ordered window of at most `concurrency`
// chunks: each chunk's request starts as soon as the chunk is read, the head chunk is awaited and handed
// out, and only then is the window topped up. So the source is read no further than (concurrency + 1)
// chunks ahead of what the consumer has taken, whatever its length, and a slow consumer slows the reading.
//
// The engine works in whole chunks: `batchAllChunks` hands each chunk's items out as one array (one await
// per 1000 items, and its source may come in arrays too, such as the rows of a file read in blocks), and
// `batchAll` is a thin per-item layer on top of it.

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

export type { BatchAllChunkSource } from "./batch-source.js";

interface Chunk {
  /** Source position of the chunk's first item. */
  start: number;
  /** The chunk's items in order; the slots of items sent to the server are filled in from its answer. */
  items: (BatchAllItem | undefined)[];
  /** What is sent, and the chunk offset each sent item belongs at. */
  send: string[];
  offsets: number[];
  /** The answer's body as bytes; decoded when the chunk's turn comes, so that answers wait undecoded. */
  response?: HttpResponse<Buffer> | undefined;
}

/** The batch endpoint: every chunk's request is this, with the chunk's ICCIDs as its body. */
const BATCH_CALL = { method: "POST", path: "/iccid/batch", auth: "api_key", idempotent: true } as const satisfies RequestSpec;

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

/**
 * Decodes and checks a chunk's answer and puts its items in place. Done when the chunk is handed out,
 * not when its answer arrives: an answer waiting for its turn is a Buffer outside the JS heap, while a
 * thousand parsed items would outlive young-generation collections and fill the old generation.
 */
function fillItems(chunk: Chunk): void {
  const response = chunk.response;
  if (!response) return;
  const answer: BatchResult = checkedBody(BATCH_CALL, BatchResultSchema, response);
  chunk.response = undefined;
  const { items, offsets, start } = chunk;
  const results = answer.results;
  if (results.length !== offsets.length) {
    const issue = { path: "results", message: `expected ${offsets.length} items, got ${results.length}` };
    throw invalidResponse(BATCH_CALL, response, [issue], answer);
  }
  // The parsed answer is this call's own: its items are re-indexed in place rather than copied.
  for (let i = 0; i < results.length; i++) {
    const item = results[i]!;
    const offset = offsets[i]!;
    item.index = start + offset;
    items[offset] = item;
  }
  chunk.offsets = [];
}

/** How an answered chunk becomes what the caller gets: the Accept it asks with, and the decoding. */
interface ChunkForm<T> {
  accept: string;
  /** The chunk's value, and how many of its items have a result. */
  decode(chunk: Chunk): { value: T; ok: number };
}

/** The JSON answer's items, checked against the contract: what batchAll and batchAllChunks hand out. */
const ITEMS: ChunkForm<BatchAllItem[]> = {
  accept: "application/json",
  decode(chunk) {
    fillItems(chunk);
    const items = chunk.items as BatchAllItem[];
    let ok = 0;
    for (const item of items) if (item.ok) ok++;
    return { value: items, ok };
  },
};

/** The CSV answer's rows, located in its bytes: what batchAllCsv hands out. */
const CSV_ROWS: ChunkForm<CsvRows> = {
  accept: "text/csv",
  decode(chunk) {
    // A server older than the CSV form ignores Accept and answers JSON: its items make the same rows.
    const json = /^application\/json\b/i.test(chunk.response?.headers["content-type"] ?? "");
    if (json) fillItems(chunk);
    const rows = json ? CsvRows.fromItems(chunk.start, chunk.items as BatchAllItem[]) : csvRowsOf(BATCH_CALL, chunk.start, chunk.items, chunk.offsets, chunk.response);
    chunk.response = undefined;
    return { value: rows, ok: rows.ok };
  },
};

/** The engine: chunks in source order, decoded into the form the caller asked for. */
async function* runChunks<T>(
  client: IccidClient,
  iterator: Iterator<unknown> | AsyncIterator<unknown>,
  read: Reader,
  options: BatchAllOptions,
  form: ChunkForm<T>,
): AsyncGenerator<T, void, undefined> {
  const { concurrency: rawConcurrency, chunkSize: rawChunkSize, onProgress, signal, idempotencyKeyOf, ...requestOptions } = options;
  const concurrency = clampInt(rawConcurrency ?? 4, 1, 64, "concurrency");
  const chunkSize = clampInt(rawChunkSize ?? BATCH_MAX_ITEMS, 1, BATCH_MAX_ITEMS, "chunkSize");
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
      const n = await read(chunkSize, into);
      if (n < chunkSize) exhausted = true;
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
    while (!exhausted && window.length < concurrency && failure === undefined) {
      const chunk = await readChunk();
      if (!chunk) break;
      const pending = send(chunk);
      // Marks the rejection handled now (it is awaited later, in order) and stops the other requests at once,
      // unless the chunk gave up waiting to retry (retrySignal): then the answers on the wire are still taken.
      pending.catch((error: unknown) => {
        failure ??= error;
        if (!isAPIUserAbortError(error)) stop.abort();
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
      const { value, ok } = form.decode(chunk);
      await topUp();
      progress.ok += ok;
      progress.failed += chunk.items.length - ok;
      progress.done += chunk.items.length;
      onProgress?.({ ...progress });
      yield value;
    }
    if (sourceError) throw sourceError.error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    stop.abort();
    await iterator.return?.();
  }
}

/**
 * Like `batchAll`, in whole chunks: takes the ICCIDs in arrays and yields each answered chunk's items as
 * one array (up to `chunkSize` items, in source order, `index` counting from the source's start). For
 * callers that handle many items per step, such as a file converter: no promise per item on either side.
 */
export async function* batchAllChunks(
  client: IccidClient,
  source: BatchAllChunkSource,
  options: BatchAllOptions = {},
): AsyncGenerator<BatchAllItem[], void, undefined> {
  const iterator = iteratorOf(source);
  yield* runChunks(client, iterator, arrayReader(iterator), options, ITEMS);
}

/**
 * Like `batchAllChunks`, with the answers as CSV: yields each answered chunk as its lookup rows, the
 * server's bytes located but not parsed (see CsvRows). For writing the rows into a file as they are.
 */
export async function* batchAllCsv(
  client: IccidClient,
  source: BatchAllChunkSource,
  options: BatchAllOptions = {},
): AsyncGenerator<CsvRows, void, undefined> {
  const iterator = iteratorOf(source);
  yield* runChunks(client, iterator, arrayReader(iterator), options, CSV_ROWS);
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
