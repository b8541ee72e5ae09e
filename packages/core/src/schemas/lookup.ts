import { z } from "zod";
import { INPUT_MAX_LENGTH } from "../batch-limit.js";
import { LOOKUP_WARNING_CODES } from "../grammar-codes.js";
import { Country } from "./country.js";
import { ImsiAnswer } from "./imsi.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/lookup.js";

export const LookupRequest = z
  .strictObject({
    iccid: z
      .string()
      .max(INPUT_MAX_LENGTH)
      .describe("The ICCID as written: spaces, dashes, dots and F filler are fine, so are a modem's answer line and a raw EF_ICCID dump"),
    imsi: z
      .string()
      .max(INPUT_MAX_LENGTH)
      .optional()
      .describe("The SIM's IMSI, 14 or 15 digits (spaces and dashes aside): the answer then has imsi, its MCC, MNC and network"),
  })
  .register(apiSchemas, { id: "LookupRequest" });

/** Where an issuer answer came from. */
export const ISSUER_ORIGINS = ["itu-e118", "numbering-rule", "curated", "custom"] as const;
export type IssuerOrigin = (typeof ISSUER_ORIGINS)[number];

/** How sure an issuer answer is: registered to this issuer, or inferred from a numbering rule or evidence. */
export const ISSUER_CONFIDENCES = ["registered", "inferred"] as const;
export type IssuerConfidence = (typeof ISSUER_CONFIDENCES)[number];

/** The coarse source of an issuer answer: the operator's own prefixes, or the built-in registry. */
export const ISSUER_SOURCES = ["itu-e118", "custom"] as const;
export type IssuerSource = (typeof ISSUER_SOURCES)[number];

export const Issuer = z
  .object({
    prefix: z.string().describe("The issuer prefix that matched, including 89"),
    name: z.string().describe("The issuer's name as people know it today"),
    source: z
      .enum(ISSUER_SOURCES)
      .describe("custom for the operator's own prefixes, else itu-e118 (the built-in registry; origin says exactly where)"),
    registered_name: z
      .string()
      .optional()
      .describe("The name the prefix is registered or listed under; present only when it differs from name"),
    origin: z
      .enum(ISSUER_ORIGINS)
      .describe(
        "itu-e118: an ITU-T E.118 registration; numbering-rule: a national numbering rule read through the network-code list; " +
          "curated: public evidence collected in the registry; custom: the operator's own prefix",
      ),
    confidence: z
      .enum(ISSUER_CONFIDENCES)
      .describe("registered: the prefix is registered to this issuer; inferred: read from a numbering rule or evidence"),
    country: Country.nullable().describe(
      "The issuer's own country, when known; under international codes (870, 881, 882, 883, 888) the only country the answer names",
    ),
  })
  .register(apiSchemas, { id: "Issuer" });

export const HomeNetwork = z
  .object({ mcc: z.string().length(3), mnc: z.string().min(2).max(3) })
  .describe("The mobile network (E.212 MCC and MNC) the number's issuer prefix encodes")
  .register(apiSchemas, { id: "HomeNetwork" });

export const NumberingCandidate = z
  .object({
    country: Country.describe("The country whose numbering this reading uses"),
    issuer: Issuer.nullable().describe("The issuer this reading names, or null"),
    home_network: HomeNetwork.nullable(),
  })
  .describe("One way of reading a number whose digits fit two countries' numbering")
  .register(apiSchemas, { id: "NumberingCandidate" });

export const IccidWarningSchema = z
  .object({
    code: z
      .enum(LOOKUP_WARNING_CODES)
      .describe(
        "The grammar's codes (the number's shape); ambiguous_numbering: the digits read as two countries' numbering; " +
          "shared_calling_code: no country, as several countries share the calling code and nothing else in the number says which; " +
          "imsi_country_mismatch: the IMSI's country is not the ICCID's",
      ),
    message: z.string(),
    candidates: z
      .array(NumberingCandidate)
      .optional()
      .describe("With ambiguous_numbering only: every reading of the digits, the one answered first"),
  })
  .register(apiSchemas, { id: "IccidWarning" });

export const Checks = z
  .object({
    format: z.boolean(),
    luhn: z.enum(["valid", "invalid", "not_applicable"]),
    expected_check_digit: z
      .string()
      .length(1)
      .optional()
      .describe("Present when Luhn fails: the last digit that would pass (the number has a typo, perhaps in its check digit)"),
    missing_check_digit: z
      .string()
      .length(1)
      .optional()
      .describe("Present when Luhn fails: the digit to append if the number was printed without its check digit (absent at 22 digits)"),
  })
  .register(apiSchemas, { id: "Checks" });

export const LookupResult = z
  .object({
    iccid: z.string().describe("The normalised ICCID"),
    input: z.string().describe("The ICCID exactly as sent"),
    valid: z.boolean().describe("True exactly when the format passes and the Luhn check is valid"),
    length: z.number().int(),
    checks: Checks,
    check_digit: z.string().length(1),
    mii: z.string(),
    calling_code: z
      .string()
      .nullable()
      .describe("E.164 country calling code the number is under, null when unassigned (for 89+MCC+MNC numbers, the country's code)"),
    country: Country.nullable().describe(
      "The country whose numbering the card uses: from the issuer prefix, a national numbering rule or a calling code of one country; " +
        "null under international codes (870, 881, 882, 883, 888; see issuer.country) and where the digits name no single country",
    ),
    issuer: Issuer.nullable(),
    home_network: HomeNetwork.nullable(),
    account_number: z.string().nullable(),
    warnings: z.array(IccidWarningSchema),
    data_version: z.string().describe("The issuer data edition the server loaded"),
    imsi: ImsiAnswer.optional(),
  })
  .register(apiSchemas, { id: "LookupResult" });

export type LookupRequest = Wire.LookupRequest;
export type LookupResult = Wire.LookupResult;
export type Issuer = Wire.Issuer;
export type HomeNetwork = Wire.HomeNetwork;
export type NumberingCandidate = Wire.NumberingCandidate;
export type LookupWarning = Wire.LookupWarning;
