import { EID_ERROR_CODES, EID_WARNING_CODES, EidBatchResult, EidResult } from "@iccid/core";
import { isBatchSummary } from "./batch-check.js";
import { checkedFirst } from "./fast-schema.js";
import { isCountryOrNull, isInt, isObject } from "./lookup-check.js";

// The EID answers (`EidResult`, alone or in a batch) checked with plain comparisons, mirroring core's zod
// schemas field by field and never more lenient than them (see fast-schema.ts), as the ICCID answers are:
// zod's safeParse of a 1000-item answer copies every object, at many times the cost of these checks.

const WARNING_CODES: ReadonlySet<unknown> = new Set(EID_WARNING_CODES);
const ERROR_CODES: ReadonlySet<unknown> = new Set(EID_ERROR_CODES);

const isTwoChars = (v: unknown): boolean => typeof v === "string" && v.length === 2;

function isWarnings(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const w of v as unknown[]) if (!isObject(w) || !WARNING_CODES.has(w.code) || typeof w.message !== "string") return false;
  return true;
}

/** True when `r` is an `EidResult` as core's schema defines it (false says only "ask zod"). */
export function isEidResult(r: unknown): r is EidResult {
  if (!isObject(r)) return false;
  const { checks, manufacturer } = r;
  return (
    typeof r.eid === "string" &&
    typeof r.input === "string" &&
    typeof r.valid === "boolean" &&
    isObject(checks) &&
    checks.format === true &&
    (checks.mod97 === "valid" || checks.mod97 === "invalid") &&
    (checks.expected_check_digits === undefined || isTwoChars(checks.expected_check_digits)) &&
    isTwoChars(r.check_digits) &&
    (r.layout === "sgp02" || r.layout === "sgp29") &&
    (r.calling_code === null || typeof r.calling_code === "string") &&
    isCountryOrNull(r.country) &&
    (manufacturer === null || (isObject(manufacturer) && typeof manufacturer.id === "string" && (manufacturer.name === null || typeof manufacturer.name === "string"))) &&
    isWarnings(r.warnings)
  );
}

function isEidBatchItem(item: unknown): boolean {
  if (!isObject(item) || !isInt(item.index) || (item.index as number) < 0) return false;
  if (item.ok === true) return isEidResult(item.result);
  const error = item.error;
  return item.ok === false && typeof item.input === "string" && isObject(error) && ERROR_CODES.has(error.code) && typeof error.message === "string";
}

/** True when `data` is an `EidBatchResult` as core's schema defines it (false says only "ask zod"). */
export function isEidBatchResult(data: unknown): data is EidBatchResult {
  if (!isObject(data) || !Array.isArray(data.results) || !isBatchSummary(data.summary)) return false;
  for (const item of data.results as unknown[]) if (!isEidBatchItem(item)) return false;
  return true;
}

/** `EidResult` and `EidBatchResult` with the fast checks in front of zod: the same verdicts and the same issues. */
export const FastEidResult = checkedFirst(isEidResult, EidResult);
export const FastEidBatchResult = checkedFirst(isEidBatchResult, EidBatchResult);
