import { BatchResult as BatchResultSchema, LookupResult as LookupResultSchema } from "../response-schemas.js";
import type { BatchResult, LookupRequest, LookupResult } from "@iccid/core/types";
import { batchAll, batchAllChunks, batchAllCsv, type BatchAllChunkSource, type BatchAllChunksOptions, type BatchAllItem, type BatchAllOptions } from "../batch-all.js";
import type { CsvRows } from "../csv-rows.js";
import type { IccidClient, RequestOptions } from "../client.js";

/** ICCID lookups: one, a batch of up to 1000, or a stream of any length. */
export class IccidResource {
  constructor(private readonly client: IccidClient) {}

  /**
   * Decodes one ICCID, given as written or as `{ iccid, imsi }` with the SIM's IMSI (the result then has
   * `imsi`). Sent with an Idempotency-Key (`options.idempotencyKey`, or one of the call's own) so that a
   * retry is never charged twice. A well-formed number with a wrong check digit is a result with
   * `valid: false`; bad grammar, of the ICCID or the IMSI, is a 422 naming the field.
   */
  lookup(iccid: string | LookupRequest, options?: RequestOptions): Promise<LookupResult> {
    const body = typeof iccid === "string" ? { iccid } : iccid;
    return this.client.call({ method: "POST", path: "/iccid/lookup", auth: "api_key", body, schema: LookupResultSchema, idempotent: true }, options);
  }

  /**
   * Decodes 1–1000 ICCIDs in one request, each as written or as `{ iccid, imsi }`; a bad item is reported in
   * place and never fails the batch. Sent with an Idempotency-Key like `lookup`.
   */
  batch(iccids: ReadonlyArray<string | LookupRequest>, options?: RequestOptions): Promise<BatchResult> {
    return this.client.call({ method: "POST", path: "/iccid/batch", auth: "api_key", body: { iccids }, schema: BatchResultSchema, idempotent: true }, options);
  }

  /** Streams any number of ICCIDs through the batch endpoint; results come out in input order. See BatchAllOptions. */
  batchAll(source: Iterable<string> | AsyncIterable<string>, options?: BatchAllOptions): AsyncIterable<BatchAllItem> {
    return batchAll(this.client, source, options);
  }

  /**
   * batchAll in whole chunks, for callers that handle many items at a time: reads the ICCIDs in arrays of
   * any length and yields each answered chunk's items as one array, in order. See BatchAllChunksOptions.
   */
  batchAllChunks(source: BatchAllChunkSource, options?: BatchAllChunksOptions<BatchAllItem[]>): AsyncIterable<BatchAllItem[]> {
    return batchAllChunks(this.client, source, options);
  }

  /**
   * batchAllChunks with the server's CSV response: yields each answered chunk as its lookup rows (the columns
   * of LOOKUP_ROW_COLUMNS), as bytes ready to copy into a CSV file, each with its outcome. See CsvRows and
   * BatchAllChunksOptions.
   */
  batchAllCsv(source: BatchAllChunkSource, options?: BatchAllChunksOptions<CsvRows>): AsyncIterable<CsvRows> {
    return batchAllCsv(this.client, source, options);
  }
}
