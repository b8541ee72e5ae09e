import { z } from "zod";
import { BATCH_MAX_ITEMS, INPUT_MAX_LENGTH } from "../batch-limit.js";
import { EID_ERROR_CODES, EID_WARNING_CODES } from "../eid.js";
import { BatchSummary } from "./batch.js";
import { Country } from "./country.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/eid.js";

const EID_AS_WRITTEN = "The EID as written: spaces, dashes, an EID: label and a modem's answer line (+CEID:, %XEID:) are fine";

export const EidLookupRequest = z
  .strictObject({ eid: z.string().max(INPUT_MAX_LENGTH).describe(EID_AS_WRITTEN) })
  .register(apiSchemas, { id: "EidLookupRequest" });

export const EidBatchRequest = z
  .strictObject({
    eids: z
      .array(z.string().max(INPUT_MAX_LENGTH))
      .min(1, { error: `must hold 1 to ${BATCH_MAX_ITEMS} items` })
      .max(BATCH_MAX_ITEMS, { error: `must hold 1 to ${BATCH_MAX_ITEMS} items` }),
  })
  .register(apiSchemas, { id: "EidBatchRequest" });

export const EidWarningSchema = z
  .object({ code: z.enum(EID_WARNING_CODES), message: z.string() })
  .register(apiSchemas, { id: "EidWarning" });

export const EidChecksSchema = z
  .object({
    format: z.literal(true),
    mod97: z.enum(["valid", "invalid"]),
    expected_check_digits: z
      .string()
      .length(2)
      .optional()
      .describe("Present when mod97 fails: the check digits that would make the number pass"),
  })
  .register(apiSchemas, { id: "EidChecks" });

export const EidManufacturer = z
  .object({
    id: z.string().describe("The eUICC issuer's identifier in the EID (SGP.02: 89, the country code and the issuer's three digits)"),
    name: z.string().nullable().describe("The manufacturer's name where a source the project may use names the identifier; else null"),
  })
  .register(apiSchemas, { id: "EidManufacturer" });

export const EidResult = z
  .object({
    eid: z.string().describe("The normalised EID: 32 digits"),
    input: z.string().describe("The EID exactly as sent"),
    valid: z.boolean().describe("True exactly when the check digits pass (the number mod 97 is 1)"),
    checks: EidChecksSchema,
    check_digits: z.string().length(2),
    layout: z.enum(["sgp02", "sgp29"]).describe("sgp02 for an EID that starts with 89, else sgp29"),
    calling_code: z.string().nullable().describe("SGP.02: the E.164 calling code the EID carries, null when not assigned; null for SGP.29"),
    country: Country.nullable().describe("The calling code's country, where the code belongs to one country"),
    manufacturer: EidManufacturer.nullable().describe("SGP.02: the eUICC issuer's identifier and, where known, its name; null for SGP.29"),
    warnings: z.array(EidWarningSchema),
  })
  .register(apiSchemas, { id: "EidResult" });

export const EidBatchItemError = z
  .object({ code: z.enum(EID_ERROR_CODES), message: z.string() })
  .register(apiSchemas, { id: "EidBatchItemError" });

export const EidBatchItem = z
  .discriminatedUnion("ok", [
    z.object({ index: z.number().int().nonnegative(), ok: z.literal(true), result: EidResult }),
    z.object({ index: z.number().int().nonnegative(), ok: z.literal(false), input: z.string(), error: EidBatchItemError }),
  ])
  .register(apiSchemas, { id: "EidBatchItem" });

export const EidBatchResult = z
  .object({ results: z.array(EidBatchItem), summary: BatchSummary })
  .register(apiSchemas, { id: "EidBatchResult" });

export type EidLookupRequest = Wire.EidLookupRequest;
export type EidBatchRequest = Wire.EidBatchRequest;
export type EidManufacturer = Wire.EidManufacturer;
export type EidResult = Wire.EidResult;
export type EidBatchItemError = Wire.EidBatchItemError;
export type EidBatchItem = Wire.EidBatchItem;
export type EidBatchResult = Wire.EidBatchResult;
