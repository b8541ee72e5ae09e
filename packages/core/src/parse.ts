import {
  ICCID_MAX_LENGTH,
  ICCID_MIN_LENGTH,
  TELECOM_MII,
  type IccidErrorCode,
  type IccidWarningCode,
} from "./grammar-codes.js";
import { isLuhnValid } from "./luhn.js";
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

/** An ICCID whose format passed; `valid` also needs the Luhn check to pass. */
export interface ParsedIccid {
  ok: true;
  iccid: string;
  input: string;
  valid: boolean;
  length: number;
  checks: { format: true; luhn: LuhnStatus };
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
const STANDARD_LENGTHS = new Set([19, 20]);

// One frozen object per warning, shared by every result: no allocation per ICCID.
const WARNINGS: Record<IccidWarningCode, Readonly<IccidWarning>> = {
  padding_stripped: Object.freeze({ code: "padding_stripped", message: "trailing F padding was removed" }),
  non_standard_length: Object.freeze({
    code: "non_standard_length",
    message: "the length is allowed but unusual (19 and 20 are standard)",
  }),
  hex_digits: Object.freeze({ code: "hex_digits", message: "the number holds hex digits A-F, so the Luhn check does not apply" }),
};

function reject(input: string, code: IccidErrorCode, message: string): RejectedIccid {
  return { ok: false, input, error: { code, message } };
}

function warning(code: IccidWarningCode): IccidWarning {
  return WARNINGS[code];
}

/** Checks the grammar of one ICCID (API.md, "ICCID grammar"). Never throws, whatever it is given. */
export function parseIccid(input: string): IccidParseResult {
  if (typeof input !== "string") return reject(String(input), "invalid_characters", "the ICCID must be a string");
  const { value, paddingStripped } = normalizeIccid(input);

  if (value.length === 0) return reject(input, "empty", "the ICCID is empty");
  if (!HEX_ONLY.test(value)) {
    return reject(input, "invalid_characters", "the ICCID may hold only digits, hex letters A-F, spaces, dashes and dots");
  }
  // The MII is judged before the length: "12AB" is better told "not an ICCID" than "too short".
  if (!TELECOM_MII.startsWith(value.slice(0, 2))) {
    return reject(input, "invalid_mii", `an ICCID starts with ${TELECOM_MII} (the telecom industry identifier)`);
  }
  if (value.length < ICCID_MIN_LENGTH) {
    return reject(input, "too_short", `the ICCID has ${value.length} characters; at least ${ICCID_MIN_LENGTH} are needed`);
  }
  if (value.length > ICCID_MAX_LENGTH) {
    return reject(input, "too_long", `the ICCID has ${value.length} characters; at most ${ICCID_MAX_LENGTH} are allowed`);
  }

  const warnings: IccidWarning[] = [];
  if (paddingStripped) warnings.push(warning("padding_stripped"));
  if (!STANDARD_LENGTHS.has(value.length)) warnings.push(warning("non_standard_length"));
  let luhn: LuhnStatus;
  if (DECIMAL_ONLY.test(value)) {
    luhn = isLuhnValid(value) ? "valid" : "invalid";
  } else {
    warnings.push(warning("hex_digits"));
    luhn = "not_applicable";
  }

  return {
    ok: true,
    iccid: value,
    input,
    valid: luhn === "valid",
    length: value.length,
    checks: { format: true, luhn },
    check_digit: value.charAt(value.length - 1),
    mii: TELECOM_MII,
    warnings,
  };
}

/** Offline check of one ICCID: grammar and Luhn, no issuer data, no network. */
export const validateIccid = parseIccid;
