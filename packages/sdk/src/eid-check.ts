import { EID_ERROR_CODES, EID_WARNING_CODES, EidBatchResult, EidResult } from "@iccid/core";
import { checkedFirst } from "./fast-schema.js";
import { isBatchItemOf, isBatchOf, isCountryOrNull, isObject, isStringOrNull, isWarningsOf } from "./shape-check.js";

// The EID answers (`EidResult`, alone or in a batch) checked with plain comparisons, mirroring core's zod
// schemas field by field and never more lenient than them (see fast-schema.ts), as the ICCID answers are:
// zod's safeParse of a 1000-item answer copies every object, at many times the cost of these checks.

const isTwoChars = (v: unknown): boolean => typeof v === "string" && v.length === 2;

const isWarnings = isWarningsOf(EID_WARNING_CODES);

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
    isStringOrNull(r.calling_code) &&
    isCountryOrNull(r.country) &&
    (manufacturer === null || (isObject(manufacturer) && typeof manufacturer.id === "string" && isStringOrNull(manufacturer.name))) &&
    isWarnings(r.warnings)
  );
}

/** True when `data` is an `EidBatchResult` as core's schema defines it (false says only "ask zod"). */
export const isEidBatchResult = isBatchOf<EidBatchResult>(isBatchItemOf(isEidResult, EID_ERROR_CODES));

/** `EidResult` and `EidBatchResult` with the fast checks in front of zod: the same verdicts and the same issues. */
export const FastEidResult = checkedFirst(isEidResult, EidResult);
export const FastEidBatchResult = checkedFirst(isEidBatchResult, EidBatchResult);
