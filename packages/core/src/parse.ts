import {
  ICCID_MAX_LENGTH,
  ICCID_MIN_LENGTH,
  TELECOM_MII,
  type IccidErrorCode,
  type IccidWarningCode,
} from "./grammar-codes.js";
import { luhnCheckDigit, passesLuhn } from "./luhn.js";
import { normalizeIccid } from "./normalize.js";

export type LuhnStatus = "valid" | "invalid" | "not_applicable";

export interface IccidWarning {
  code: IccidWarningCode;
  message: string;
}

export interface IccidGrammarError {
  code: IccidErrorCode;
  message: string;
}

/**
 * The grammar's verdict. Only when the Luhn check fails: `expected_check_digit` is the last digit that would
 * pass (the number has a typo, perhaps in the check digit itself) and `missing_check_digit` the digit that
 * completes the number if it was printed without its check digit (absent when that would be too long).
 */
export interface IccidChecks {
  format: true;
  luhn: LuhnStatus;
  expected_check_digit?: string;
  missing_check_digit?: string;
}

/** An ICCID whose format passed; `valid` also needs the Luhn check to pass. */
export interface ParsedIccid {
  ok: true;
  iccid: string;
  input: string;
  valid: boolean;
  length: number;
  checks: IccidChecks;
  check_digit: string;
  mii: string;
  warnings: IccidWarning[];
}

export interface RejectedIccid {
  ok: false;
  input: string;
  error: IccidGrammarError;
}

export type IccidParseResult = ParsedIccid | RejectedIccid;

const HEX_ONLY = /^[0-9A-F]+$/;
const DECIMAL_ONLY = /^[0-9]+$/;
/** 19 and 20 digits are the standard lengths (compared, not looked up: this runs for every ICCID). */
const isStandardLength = (length: number): boolean => length === 19 || length === 20;

// One frozen object per warning, shared by every result: no allocation per ICCID.
const WARNINGS: Record<IccidWarningCode, Readonly<IccidWarning>> = {
  padding_stripped: Object.freeze({ code: "padding_stripped", message: "trailing F padding was removed" }),
  modem_response: Object.freeze({ code: "modem_response", message: "the ICCID was read out of a modem's answer line (+CCID:, +QCCID:, ^ICCID:, +CRSM: …)" }),
  nibble_swapped: Object.freeze({
    code: "nibble_swapped",
    message: "the input read as a raw EF_ICCID dump (98…, digits swapped in each byte) and was swapped back",
  }),
  non_standard_length: Object.freeze({
    code: "non_standard_length",
    message: "the length is allowed but unusual (19 and 20 are standard)",
  }),
  hex_digits: Object.freeze({ code: "hex_digits", message: "the number holds hex digits A-F, so the Luhn check does not apply" }),
  full_width_digits: Object.freeze({ code: "full_width_digits", message: "full-width characters (８９４４…) were read as ASCII digits" }),
  quotes_stripped: Object.freeze({ code: "quotes_stripped", message: "the quotes around the number were removed" }),
};

function reject(input: string, code: IccidErrorCode, message: string): RejectedIccid {
  return { ok: false, input, error: { code, message } };
}

function warning(code: IccidWarningCode): IccidWarning {
  return WARNINGS[code];
}

const FILLER_WARNINGS = {
  trailing: WARNINGS.padding_stripped,
  leading: Object.freeze({ code: "padding_stripped", message: "leading F filler was removed" }),
  both: Object.freeze({ code: "padding_stripped", message: "leading and trailing F filler was removed" }),
} as const satisfies Record<string, Readonly<IccidWarning>>;

// Shared and frozen, like the warnings: the server's encoder writes a frozen object's JSON once.
const PASSING_CHECKS: Readonly<IccidChecks> = Object.freeze({ format: true, luhn: "valid" });
const HEX_CHECKS: Readonly<IccidChecks> = Object.freeze({ format: true, luhn: "not_applicable" });

/** The checks of a decimal number that fails Luhn: which digit would pass, in either reading. */
function failingChecks(value: string): IccidChecks {
  const expected = luhnCheckDigit(value.slice(0, -1));
  if (value.length >= ICCID_MAX_LENGTH) return { format: true, luhn: "invalid", expected_check_digit: expected };
  return { format: true, luhn: "invalid", expected_check_digit: expected, missing_check_digit: luhnCheckDigit(value) };
}

// A number as a spreadsheet shows and exports a long number it stored as a number: a digit, perhaps a
// decimal mark (point or comma) and a few more, then a positive exponent (8.9441E+19). An ICCID has more
// digits than a spreadsheet's number keeps (15), so the rest are gone, and the message says so.
const ROUNDED_BY_SPREADSHEET = /^\d(?:[.,]\d+)?E\+\d{1,2}$/i;
const ROUNDED_MESSAGE =
  "a spreadsheet rounded this ICCID to a number (as 8.9441E+19) and its digits are lost; format the column as text and enter or export the numbers again";

/** Checks the grammar of one ICCID (docs/api.md, "How an ICCID is read"). Never throws, whatever it is given. */
export function parseIccid(input: string): IccidParseResult {
  if (typeof input !== "string") return reject(String(input), "invalid_characters", "the ICCID must be a string");
  const { value, filler, modemTag, nibbleSwapped, fullWidth, quoted, digitsOnly } = normalizeIccid(input);

  if (value.length === 0) return reject(input, "empty", "the ICCID is empty");
  if (!digitsOnly && !HEX_ONLY.test(value)) {
    if (ROUNDED_BY_SPREADSHEET.test(input.trim())) return reject(input, "invalid_characters", ROUNDED_MESSAGE);
    return reject(input, "invalid_characters", "the ICCID may hold only digits, hex letters A-F, spaces, dashes and dots");
  }
  // The MII is judged before the length: "12AB" is better told "not an ICCID" than "too short" (and "8",
  // which may yet become one, is told it is too short).
  if (!value.startsWith(TELECOM_MII) && !TELECOM_MII.startsWith(value)) {
    return reject(input, "invalid_mii", `an ICCID starts with ${TELECOM_MII} (the telecom industry identifier)`);
  }
  if (value.length < ICCID_MIN_LENGTH) {
    return reject(input, "too_short", `the ICCID has ${value.length} characters; at least ${ICCID_MIN_LENGTH} are needed`);
  }
  if (value.length > ICCID_MAX_LENGTH) {
    return reject(input, "too_long", `the ICCID has ${value.length} characters; at most ${ICCID_MAX_LENGTH} are allowed`);
  }

  const warnings: IccidWarning[] = [];
  if (fullWidth) warnings.push(warning("full_width_digits"));
  if (quoted) warnings.push(warning("quotes_stripped"));
  if (modemTag !== null) warnings.push(warning("modem_response"));
  if (nibbleSwapped) warnings.push(warning("nibble_swapped"));
  if (filler !== null) warnings.push(FILLER_WARNINGS[filler]);
  if (!isStandardLength(value.length)) warnings.push(warning("non_standard_length"));
  let checks: IccidChecks;
  if (digitsOnly || DECIMAL_ONLY.test(value)) {
    checks = passesLuhn(value) ? PASSING_CHECKS : failingChecks(value);
  } else {
    warnings.push(warning("hex_digits"));
    checks = HEX_CHECKS;
  }

  return {
    ok: true,
    iccid: value,
    input,
    valid: checks.luhn === "valid",
    length: value.length,
    checks,
    check_digit: value.charAt(value.length - 1),
    mii: TELECOM_MII,
    warnings,
  };
}
