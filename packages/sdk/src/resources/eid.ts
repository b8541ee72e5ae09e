import { EidBatchResult as EidBatchResultSchema, EidResult as EidResultSchema } from "../response-schemas.js";
import type { EidBatchResult, EidResult } from "@iccid/core/types";
import type { IccidClient, RequestOptions } from "../client.js";

/** EID lookups: an eUICC's 32-digit identifier, one or a batch of up to 1000; each EID read is one lookup. */
export class EidResource {
  constructor(private readonly client: IccidClient) {}

  /** Reads one EID. A well-formed EID with wrong check digits is a result with `valid: false`; bad grammar is a 422. */
  lookup(eid: string, options?: RequestOptions): Promise<EidResult> {
    return this.client.call({ method: "POST", path: "/eid/lookup", auth: "api_key", body: { eid }, schema: EidResultSchema, idempotent: true }, options);
  }

  /** Reads 1–1000 EIDs in one request; a bad item is reported in place and never fails the batch. */
  batch(eids: readonly string[], options?: RequestOptions): Promise<EidBatchResult> {
    return this.client.call({ method: "POST", path: "/eid/batch", auth: "api_key", body: { eids }, schema: EidBatchResultSchema, idempotent: true }, options);
  }
}
