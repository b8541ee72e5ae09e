import { BatchResult, ICCID_ERROR_CODES, ICCID_WARNING_CODES, ISSUER_CONFIDENCES, ISSUER_ORIGINS, ISSUER_SOURCES } from "@iccid/core";
import type { ResponseSchema } from "./answer.js";

// The batch answer checked at the cost of a few comparisons per item. zod's safeParse of a 1000-item
// answer builds a copy of every object and cost more than the rest of the SDK's work on it together
// (≈1.5 µs per item, against ≈0.1 µs here). This check mirrors core's `BatchResult` schema and is never
// more lenient than it: whatever it does not accept goes to zod, which either accepts it after all (a
// shape this check does not know) or reports the issues, paths and messages exactly as before. Unlike
// zod, an accepted answer is returned as parsed, so fields the schema does not name are kept, not stripped.

type Obj = Record<string, unknown>;

const WARNING_CODES: ReadonlySet<unknown> = new Set(ICCID_WARNING_CODES);
const ERROR_CODES: ReadonlySet<unknown> = new Set(ICCID_ERROR_CODES);
const ORIGINS: ReadonlySet<unknown> = new Set(ISSUER_ORIGINS);
const SOURCES: ReadonlySet<unknown> = new Set(ISSUER_SOURCES);
const CONFIDENCES: ReadonlySet<unknown> = new Set(ISSUER_CONFIDENCES);

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown): boolean => Number.isSafeInteger(v);
const isStringOrNull = (v: unknown): boolean => v === null || typeof v === "string";
const isDigitOrAbsent = (v: unknown): boolean => v === undefined || (typeof v === "string" && v.length === 1);

function isIssuer(issuer: unknown): boolean {
  return (
    isObject(issuer) &&
    typeof issuer.prefix === "string" &&
    typeof issuer.name === "string" &&
    SOURCES.has(issuer.source) &&
    (issuer.registered_name === undefined || typeof issuer.registered_name === "string") &&
    ORIGINS.has(issuer.origin) &&
    CONFIDENCES.has(issuer.confidence)
  );
}

function isHomeNetwork(home: unknown): boolean {
  if (home === null) return true;
  if (!isObject(home) || typeof home.mcc !== "string" || typeof home.mnc !== "string") return false;
  return home.mcc.length === 3 && home.mnc.length >= 2 && home.mnc.length <= 3;
}

function isWarnings(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const w: unknown = v[i];
    if (!isObject(w) || !WARNING_CODES.has(w.code) || typeof w.message !== "string") return false;
  }
  return true;
}

function isLookupResult(r: unknown): boolean {
  if (!isObject(r)) return false;
  const checks = r.checks;
  const country = r.country;
  const issuer = r.issuer;
  const luhn = isObject(checks) ? checks.luhn : undefined;
  return (
    typeof r.iccid === "string" &&
    typeof r.input === "string" &&
    typeof r.valid === "boolean" &&
    isInt(r.length) &&
    isObject(checks) &&
    typeof checks.format === "boolean" &&
    (luhn === "valid" || luhn === "invalid" || luhn === "not_applicable") &&
    isDigitOrAbsent(checks.expected_check_digit) &&
    isDigitOrAbsent(checks.missing_check_digit) &&
    typeof r.check_digit === "string" &&
    r.check_digit.length === 1 &&
    typeof r.mii === "string" &&
    isStringOrNull(r.calling_code) &&
    (country === null || (isObject(country) && typeof country.iso2 === "string" && country.iso2.length === 2 && typeof country.name === "string")) &&
    (issuer === null || isIssuer(issuer)) &&
    isHomeNetwork(r.home_network) &&
    isStringOrNull(r.account_number) &&
    isWarnings(r.warnings) &&
    typeof r.data_version === "string"
  );
}

function isBatchItem(item: unknown): boolean {
  if (!isObject(item)) return false;
  const index = item.index;
  if (!isInt(index) || (index as number) < 0) return false;
  if (item.ok === true) return isLookupResult(item.result);
  if (item.ok !== false || typeof item.input !== "string") return false;
  const error = item.error;
  return isObject(error) && ERROR_CODES.has(error.code) && typeof error.message === "string";
}

/** True when `data` is a `BatchResult` as core's schema defines it (false says only "ask zod"). */
export function isBatchResult(data: unknown): data is BatchResult {
  if (!isObject(data)) return false;
  const { results, summary } = data;
  if (!Array.isArray(results) || !isObject(summary)) return false;
  if (
    !isInt(summary.total) ||
    !isInt(summary.ok) ||
    !isInt(summary.failed) ||
    !isInt(summary.valid) ||
    !isInt(summary.invalid) ||
    !isInt(summary.unique)
  ) {
    return false;
  }
  for (let i = 0; i < results.length; i++) if (!isBatchItem(results[i])) return false;
  return true;
}

/** `BatchResult` with the fast check in front of zod: the same verdicts and the same issues, at a fraction of the cost. */
export const FastBatchResult: ResponseSchema<BatchResult> = {
  safeParse(data: unknown) {
    return isBatchResult(data) ? { success: true, data } : BatchResult.safeParse(data);
  },
};
