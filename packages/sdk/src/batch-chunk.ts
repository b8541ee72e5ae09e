import { BatchResult as BatchResultSchema } from "./response-schemas.js";
import type { BatchItem, BatchResult } from "@iccid/core/types";
import type { RequestSpec } from "./client.js";
import { CsvRows, csvRowsOf } from "./csv-rows.js";
import { checkedBody, invalidResponse } from "./response-body.js";
import type { HttpResponse } from "./transport.js";

// One chunk of batchAll's source on its way through the batch endpoint, and the forms its response is
// decoded into: the JSON items (batchAll, batchAllChunks) or the CSV rows (batchAllCsv).

/** A batch item whose `index` is its position in the whole source (not in its chunk). */
export type BatchAllItem = BatchItem;

export interface Chunk {
  /** Source position of the chunk's first item. */
  start: number;
  /** The chunk's items in order; the slots of items sent to the server are filled in from its response. */
  items: (BatchAllItem | undefined)[];
  /** What is sent, and the chunk offset each sent item belongs at. */
  send: string[];
  offsets: number[];
  /** The response's body as bytes; decoded when the chunk's turn comes, so that responses wait undecoded. */
  response?: HttpResponse<Buffer> | undefined;
}

/** The batch endpoint: every chunk's request is this, with the chunk's ICCIDs as its body. */
export const BATCH_CALL = { method: "POST", path: "/iccid/batch", auth: "api_key", idempotent: true } as const satisfies RequestSpec;

/**
 * Decodes and checks a chunk's response and puts its items in place. Done when the chunk is handed out,
 * not when its response arrives: a response waiting for its turn is a Buffer outside the JS heap, while a
 * thousand parsed items would outlive young-generation collections and fill the old generation.
 */
function fillItems(chunk: Chunk): void {
  const response = chunk.response;
  if (!response) return;
  const result: BatchResult = checkedBody(BATCH_CALL, BatchResultSchema, response);
  chunk.response = undefined;
  const { items, offsets, start } = chunk;
  const results = result.results;
  if (results.length !== offsets.length) {
    const issue = { path: "results", message: `expected ${offsets.length} items, got ${results.length}` };
    throw invalidResponse(BATCH_CALL, response, [issue], result);
  }
  // The parsed result is this call's own: its items are re-indexed in place rather than copied.
  for (let i = 0; i < results.length; i++) {
    const item = results[i]!;
    const offset = offsets[i]!;
    item.index = start + offset;
    items[offset] = item;
  }
  chunk.offsets = [];
}

/** How a chunk with its response becomes what the caller gets: the Accept it asks with, and the decoding. */
export interface ChunkForm<T> {
  accept: string;
  /** The chunk's value, and how many of its items have a result. */
  decode(chunk: Chunk): { value: T; ok: number };
}

/** The JSON response's items, checked against the contract: what batchAll and batchAllChunks hand out. */
export const ITEMS: ChunkForm<BatchAllItem[]> = {
  accept: "application/json",
  decode(chunk) {
    fillItems(chunk);
    const items = chunk.items as BatchAllItem[];
    let ok = 0;
    for (const item of items) if (item.ok) ok++;
    return { value: items, ok };
  },
};

/** The CSV response's rows, located in its bytes: what batchAllCsv hands out. */
export const CSV_ROWS: ChunkForm<CsvRows> = {
  accept: "text/csv",
  decode(chunk) {
    // A server older than the CSV form ignores Accept and sends JSON: its items make the same rows.
    const json = /^application\/json\b/i.test(chunk.response?.headers["content-type"] ?? "");
    if (json) fillItems(chunk);
    const rows = json ? CsvRows.fromItems(chunk.start, chunk.items as BatchAllItem[]) : csvRowsOf(BATCH_CALL, chunk.start, chunk.items, chunk.offsets, chunk.response);
    chunk.response = undefined;
    return { value: rows, ok: rows.ok };
  },
};
