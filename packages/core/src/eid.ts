import { readModemAnswer } from "./modem-answer.js";
import { halfWidth, unquoted, withoutSeparators } from "./written-forms.js";

// The eUICC identifier (EID, GSMA SGP.02 and SGP.29): 32 decimal digits whose last two are check digits,
// chosen so that the whole number mod 97 is 1 (ISO/IEC 7064 MOD 97-10, as for an IBAN). An EID that starts
// with 89 follows SGP.02's layout: 89, a three-digit E.164 country code, a three-digit issuer identifier,
// then the issuer's own digits; one that does not follows SGP.29, where the first digits name the eUICC
// manufacturer through a chain of range holders of varying length.

export const EID_LENGTH = 32;

/** Why an input is not an EID. */
export const EID_ERROR_CODES = ["empty", "invalid_characters", "too_short", "too_long"] as const;
export type EidErrorCode = (typeof EID_ERROR_CODES)[number];

/** Remarks about how an EID was written that did not stop it from being read. */
export const EID_WARNING_CODES = ["modem_response", "full_width_digits", "quotes_stripped"] as const;
export type EidWarningCode = (typeof EID_WARNING_CODES)[number];

export interface EidWarning {
  code: EidWarningCode;
  message: string;
}

/** The check digits' verdict; when they fail, the two digits that would pass. */
export interface EidChecks {
  format: true;
  mod97: "valid" | "invalid";
  /** Present when mod97 fails: the check digits that would make the number pass. */
  expected_check_digits?: string;
}

/** An EID that has the shape of one; `valid` also needs its check digits to pass. */
export interface ParsedEid {
  ok: true;
  /** The normalised EID: 32 digits. */
  eid: string;
  input: string;
  valid: boolean;
  checks: EidChecks;
  check_digits: string;
  /** `sgp02` for an EID that starts with 89 (country code and issuer identifier in fixed places), else `sgp29`. */
  layout: "sgp02" | "sgp29";
  /** SGP.02 layout: the E.164 country code, without its leading zeros (`049` is 49); null otherwise. */
  country_code: string | null;
  /** SGP.02 layout: the first eight digits (89, country code, issuer identifier), naming the eUICC's issuer; null otherwise. */
  issuer_id: string | null;
  warnings: EidWarning[];
}

export interface RejectedEid {
  ok: false;
  input: string;
  error: { code: EidErrorCode; message: string };
}

export type EidParseResult = ParsedEid | RejectedEid;

const DIGITS = /^[0-9]*$/;

const WARNINGS: Record<EidWarningCode, Readonly<EidWarning>> = {
  modem_response: Object.freeze({ code: "modem_response", message: "the EID was read out of a modem's answer line (+CEID:, %XEID:, EID: …)" }),
  full_width_digits: Object.freeze({ code: "full_width_digits", message: "full-width characters were read as ASCII digits" }),
  quotes_stripped: Object.freeze({ code: "quotes_stripped", message: "the quotes around the number were removed" }),
};

/** `digits` mod 97, digit by digit (32 digits do not fit a double). */
function mod97(digits: string): number {
  let remainder = 0;
  for (let i = 0; i < digits.length; i++) remainder = (remainder * 10 + digits.charCodeAt(i) - 48) % 97;
  return remainder;
}

/** The two check digits that complete 30 digits into an EID that passes: 98 − (the digits followed by 00) mod 97. */
export function eidCheckDigits(first30: string): string {
  return String(98 - mod97(`${first30}00`)).padStart(2, "0");
}

/** An EID as written by a person or a modem: full-width digits as ASCII, no separators, quotes or answer tag. */
export function normalizeEid(input: string): { value: string; warnings: EidWarning[] } {
  const warnings: EidWarning[] = [];
  const narrow = halfWidth(input);
  if (narrow !== null) warnings.push(WARNINGS.full_width_digits);
  let value = withoutSeparators(narrow ?? input).toUpperCase();
  const inner = unquoted(value);
  if (inner !== null) {
    warnings.push(WARNINGS.quotes_stripped);
    value = inner;
  }
  const answer = readModemAnswer(value);
  if (answer) {
    warnings.push(WARNINGS.modem_response);
    value = answer.payload;
  }
  return { value, warnings };
}

function reject(input: string, code: EidErrorCode, message: string): RejectedEid {
  return { ok: false, input, error: { code, message } };
}

/** Checks the grammar of one EID: its shape, then its check digits. Never throws, whatever it is given. */
export function parseEid(input: string): EidParseResult {
  if (typeof input !== "string") return reject(String(input), "invalid_characters", "the EID must be a string");
  const { value, warnings } = normalizeEid(input);
  if (value.length === 0) return reject(input, "empty", "the EID is empty");
  if (!DIGITS.test(value)) return reject(input, "invalid_characters", "an EID holds only digits (spaces and dashes aside)");
  if (value.length < EID_LENGTH) return reject(input, "too_short", `the EID has ${value.length} digits; an EID has ${EID_LENGTH}`);
  if (value.length > EID_LENGTH) return reject(input, "too_long", `the EID has ${value.length} digits; an EID has ${EID_LENGTH}`);

  const valid = mod97(value) === 1;
  const sgp02 = value.startsWith("89");
  return {
    ok: true,
    eid: value,
    input,
    valid,
    checks: valid ? { format: true, mod97: "valid" } : { format: true, mod97: "invalid", expected_check_digits: eidCheckDigits(value.slice(0, 30)) },
    check_digits: value.slice(30),
    layout: sgp02 ? "sgp02" : "sgp29",
    country_code: sgp02 ? String(Number(value.slice(2, 5))) : null,
    issuer_id: sgp02 ? value.slice(0, 8) : null,
    warnings,
  };
}
