import { ICCID_ERROR_CODES, type IccidErrorCode } from "./grammar-codes.js";
import { halfWidth, withoutSeparators } from "./written-forms.js";

// The IMSI (ITU-T E.212): a three-digit mobile country code (MCC), a two- or three-digit mobile network
// code (MNC) and the subscriber's number, 14 or 15 digits in all (15 in practice; 14 where a network still
// issues them). Which length the MNC has is not in the digits: the network list says it, so the split is
// the server's, and so is whether the MCC is known at all.

export const IMSI_MIN_LENGTH = 14;
export const IMSI_MAX_LENGTH = 15;

/** Why an input is not an IMSI: its shape (the grammar), or an MCC no network list names (the server). */
export const IMSI_ERROR_CODES = ["empty", "invalid_characters", "too_short", "too_long", "unknown_mcc"] as const;
export type ImsiErrorCode = (typeof IMSI_ERROR_CODES)[number];

/** Why an ICCID batch item fails: its ICCID's grammar, or the grammar or MCC of the IMSI sent with it; each code once. */
export type BatchItemErrorCode = IccidErrorCode | ImsiErrorCode;
export const BATCH_ITEM_ERROR_CODES = [...new Set([...ICCID_ERROR_CODES, ...IMSI_ERROR_CODES])] as [BatchItemErrorCode, ...BatchItemErrorCode[]];

/** An IMSI of the right shape: its digits and the MCC they start with. */
export interface ParsedImsi {
  ok: true;
  /** The normalised IMSI: 14 or 15 digits. */
  imsi: string;
  mcc: string;
}

export interface RejectedImsi {
  ok: false;
  input: string;
  error: { code: ImsiErrorCode; message: string };
}

const DIGITS = /^[0-9]*$/;

function reject(input: string, code: ImsiErrorCode, message: string): RejectedImsi {
  return { ok: false, input, error: { code, message } };
}

/** Checks the shape of one IMSI: digits only (spaces, dashes, dots and full-width digits aside), 14 or 15 of them. Never throws. */
export function parseImsi(input: string): ParsedImsi | RejectedImsi {
  if (typeof input !== "string") return reject(String(input), "invalid_characters", "the IMSI must be a string");
  const value = withoutSeparators(halfWidth(input) ?? input);
  if (value.length === 0) return reject(input, "empty", "the IMSI is empty");
  if (!DIGITS.test(value)) return reject(input, "invalid_characters", "an IMSI holds only digits (spaces and dashes aside)");
  if (value.length < IMSI_MIN_LENGTH) return reject(input, "too_short", `the IMSI has ${value.length} digits; an IMSI has 14 or 15`);
  if (value.length > IMSI_MAX_LENGTH) return reject(input, "too_long", `the IMSI has ${value.length} digits; an IMSI has 14 or 15`);
  return { ok: true, imsi: value, mcc: value.slice(0, 3) };
}
