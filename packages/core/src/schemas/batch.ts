import { z } from "zod";
import { BATCH_MAX_ITEMS, INPUT_MAX_LENGTH } from "../batch-limit.js";
import { BATCH_ITEM_ERROR_CODES } from "../imsi.js";
import { LookupRequest, LookupResult } from "./lookup.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/batch.js";

export const BatchRequest = z
  .strictObject({
    iccids: z
      .array(z.union([z.string().max(INPUT_MAX_LENGTH), LookupRequest]))
      .min(1, { error: `must hold 1 to ${BATCH_MAX_ITEMS} items` })
      .max(BATCH_MAX_ITEMS, { error: `must hold 1 to ${BATCH_MAX_ITEMS} items` }),
  })
  .register(apiSchemas, { id: "BatchRequest" });

export const BatchItemError = z
  .object({
    code: z.enum(BATCH_ITEM_ERROR_CODES),
    message: z.string(),
    field: z.literal("imsi").optional().describe("imsi when the item's IMSI failed; absent when its ICCID did"),
  })
  .register(apiSchemas, { id: "BatchItemError" });

export const BatchItem = z
  .discriminatedUnion("ok", [
    z.object({ index: z.number().int().nonnegative(), ok: z.literal(true), result: LookupResult }),
    z.object({ index: z.number().int().nonnegative(), ok: z.literal(false), input: z.string(), imsi: z.string().optional(), error: BatchItemError }),
  ])
  .register(apiSchemas, { id: "BatchItem" });

export const BatchSummary = z
  .object({
    total: z.number().int(),
    ok: z.number().int(),
    failed: z.number().int(),
    valid: z.number().int(),
    invalid: z.number().int(),
    unique: z.number().int(),
  })
  .register(apiSchemas, { id: "BatchSummary" });

export const BatchResult = z
  .object({ results: z.array(BatchItem), summary: BatchSummary })
  .register(apiSchemas, { id: "BatchResult" });

export type BatchRequest = Wire.BatchRequest;
export type BatchItem = Wire.BatchItem;
export type BatchItemError = Wire.BatchItemError;
export type BatchSummary = Wire.BatchSummary;
export type BatchResult = Wire.BatchResult;
