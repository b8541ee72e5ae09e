import { z } from "zod";
import { ICCID_ERROR_CODES } from "../grammar-codes.js";
import { LookupResult } from "./lookup.js";
import { apiSchemas } from "./registry.js";

export const BATCH_MAX_ITEMS = 1000;

export const BatchRequest = z
  .strictObject({
    iccids: z
      .array(z.string().max(256))
      .min(1, { error: `must hold 1 to ${BATCH_MAX_ITEMS} items` })
      .max(BATCH_MAX_ITEMS, { error: `must hold 1 to ${BATCH_MAX_ITEMS} items` }),
  })
  .register(apiSchemas, { id: "BatchRequest" });

export const BatchItemError = z
  .object({ code: z.enum(ICCID_ERROR_CODES), message: z.string() })
  .register(apiSchemas, { id: "BatchItemError" });

export const BatchItem = z
  .discriminatedUnion("ok", [
    z.object({ index: z.number().int().nonnegative(), ok: z.literal(true), result: LookupResult }),
    z.object({ index: z.number().int().nonnegative(), ok: z.literal(false), input: z.string(), error: BatchItemError }),
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

export type BatchRequest = z.infer<typeof BatchRequest>;
export type BatchItem = z.infer<typeof BatchItem>;
export type BatchItemError = z.infer<typeof BatchItemError>;
export type BatchSummary = z.infer<typeof BatchSummary>;
export type BatchResult = z.infer<typeof BatchResult>;
