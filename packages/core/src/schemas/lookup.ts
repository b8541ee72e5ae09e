import { z } from "zod";
import { ICCID_WARNING_CODES } from "../grammar-codes.js";
import { apiSchemas } from "./registry.js";

export const LookupRequest = z
  .strictObject({ iccid: z.string().max(256).describe("The ICCID as written; spaces, dashes, dots and F padding are fine") })
  .register(apiSchemas, { id: "LookupRequest" });

export const IccidWarningSchema = z
  .object({ code: z.enum(ICCID_WARNING_CODES), message: z.string() })
  .register(apiSchemas, { id: "IccidWarning" });

export const Country = z
  .object({ iso2: z.string().length(2), name: z.string() })
  .register(apiSchemas, { id: "Country" });

export const Issuer = z
  .object({
    prefix: z.string().describe("The issuer prefix that matched, including 89"),
    name: z.string(),
    source: z.enum(["itu-e118", "custom"]),
  })
  .register(apiSchemas, { id: "Issuer" });

export const LookupResult = z
  .object({
    iccid: z.string().describe("The normalised ICCID"),
    input: z.string().describe("The ICCID exactly as sent"),
    valid: z.boolean().describe("True exactly when the format passes and the Luhn check is valid"),
    length: z.number().int(),
    checks: z.object({ format: z.boolean(), luhn: z.enum(["valid", "invalid", "not_applicable"]) }),
    check_digit: z.string().length(1),
    mii: z.string(),
    calling_code: z.string().nullable().describe("E.164 country calling code after 89, null when unassigned"),
    country: Country.nullable(),
    issuer: Issuer.nullable(),
    account_number: z.string().nullable(),
    warnings: z.array(IccidWarningSchema),
    data_version: z.string().describe("The issuer data edition the server loaded"),
  })
  .register(apiSchemas, { id: "LookupResult" });

export type LookupRequest = z.infer<typeof LookupRequest>;
export type LookupResult = z.infer<typeof LookupResult>;
export type Country = z.infer<typeof Country>;
export type Issuer = z.infer<typeof Issuer>;
