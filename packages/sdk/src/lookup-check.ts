import { LOOKUP_WARNING_CODES, ISSUER_CONFIDENCES, ISSUER_ORIGINS, ISSUER_SOURCES, LookupResult } from "@iccid/core";
import { checkedFirst } from "./fast-schema.js";
import { isCountry, isCountryOrNull, isInt, isObject, isStringOrNull, isWarningsOf } from "./shape-check.js";

// A lookup answer (`LookupResult`, alone or as a batch item) checked with plain comparisons, mirroring
// core's zod schema field by field and never more lenient than it (see fast-schema.ts for how it is used):
// zod's safeParse builds a copy of every object it checks, these only read.

const ORIGINS: ReadonlySet<unknown> = new Set(ISSUER_ORIGINS);
const SOURCES: ReadonlySet<unknown> = new Set(ISSUER_SOURCES);
const CONFIDENCES: ReadonlySet<unknown> = new Set(ISSUER_CONFIDENCES);

const isDigitOrAbsent = (v: unknown): boolean => v === undefined || (typeof v === "string" && v.length === 1);

function isIssuer(issuer: unknown): boolean {
  return (
    isObject(issuer) &&
    typeof issuer.prefix === "string" &&
    typeof issuer.name === "string" &&
    SOURCES.has(issuer.source) &&
    (issuer.registered_name === undefined || typeof issuer.registered_name === "string") &&
    ORIGINS.has(issuer.origin) &&
    CONFIDENCES.has(issuer.confidence) &&
    isCountryOrNull(issuer.country)
  );
}

function isHomeNetwork(home: unknown): boolean {
  if (home === null) return true;
  if (!isObject(home) || typeof home.mcc !== "string" || typeof home.mnc !== "string") return false;
  return home.mcc.length === 3 && home.mnc.length >= 2 && home.mnc.length <= 3;
}

/** The `imsi` member: absent when no IMSI was sent, else the IMSI's answer. */
function isImsiAnswer(a: unknown): boolean {
  if (a === undefined) return true;
  if (!isObject(a) || typeof a.imsi !== "string" || typeof a.mcc !== "string" || a.mcc.length !== 3) return false;
  const { mnc, network, mvno } = a;
  return (
    (mnc === null || (typeof mnc === "string" && mnc.length >= 2 && mnc.length <= 3)) &&
    isCountryOrNull(a.country) &&
    (network === null || (isObject(network) && typeof network.name === "string" && isStringOrNull(network.operator))) &&
    (mvno === null || (isObject(mvno) && typeof mvno.name === "string" && typeof mvno.imsi_prefix === "string"))
  );
}

/** A lookup warning may carry the candidates of an ambiguous reading. */
const isWarnings = isWarningsOf(LOOKUP_WARNING_CODES, (w) => w.candidates === undefined || isCandidates(w.candidates));

/** An ambiguous reading's candidates: each a country, an issuer or null, and a home network or null. */
function isCandidates(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const c of v as unknown[]) {
    if (!isObject(c) || !isCountry(c.country) || !(c.issuer === null || isIssuer(c.issuer)) || !isHomeNetwork(c.home_network)) return false;
  }
  return true;
}

/** True when `r` is a `LookupResult` as core's schema defines it (false says only "ask zod"). */
export function isLookupResult(r: unknown): r is LookupResult {
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
    isCountryOrNull(country) &&
    (issuer === null || isIssuer(issuer)) &&
    isHomeNetwork(r.home_network) &&
    isStringOrNull(r.account_number) &&
    isWarnings(r.warnings) &&
    typeof r.data_version === "string" &&
    isImsiAnswer(r.imsi)
  );
}

/** `LookupResult` with the fast check in front of zod: the same verdicts and the same issues. */
export const FastLookupResult = checkedFirst(isLookupResult, LookupResult);
