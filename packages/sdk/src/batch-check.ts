import { BATCH_ITEM_ERROR_CODES, BatchResult } from "@iccid/core";
import { checkedFirst } from "./fast-schema.js";
import { isLookupResult } from "./lookup-check.js";
import { isBatchItemOf, isBatchOf } from "./shape-check.js";

// The batch answer checked at the cost of a few comparisons per item, mirroring core's `BatchResult`
// schema (see fast-schema.ts): zod's safeParse of a 1000-item answer builds a copy of every object.

/** A failed ICCID item may carry the IMSI sent with it, and its error says `field: "imsi"` when that IMSI failed. */
const isBatchItem = isBatchItemOf(
  isLookupResult,
  BATCH_ITEM_ERROR_CODES,
  (item, error) => (item.imsi === undefined || typeof item.imsi === "string") && (error.field === undefined || error.field === "imsi"),
);

/** True when `data` is a `BatchResult` as core's schema defines it (false says only "ask zod"). */
export const isBatchResult = isBatchOf<BatchResult>(isBatchItem);

/** `BatchResult` with the fast check in front of zod: the same verdicts and the same issues, at a fraction of the cost. */
export const FastBatchResult = checkedFirst(isBatchResult, BatchResult);
