import { halfWidth } from "./written-forms.js";

// The IMSI (ITU-T E.212): a three-digit mobile country code (MCC), a two- or three-digit mobile network
// code (MNC) and the subscriber's number, 14 or 15 digits in all (15 in practice; 14 where a network still
// issues them). Which length the MNC has is not in the digits: the network list says it, so the split is
// the server's, and so is whether the MCC is known at all.

export const IMSI_MIN_LENGTH = 14;
export const IMSI_MAX_LENGTH = 15;

/** Why an input is not an IMSI: its shape (the grammar), or an MCC no network list names (the server). */
export const IMSI_ERROR_CODES = ["empty", "invalid_characters", "too_short", "too_long", "unknown_mcc"] as const;
export type ImsiErrorCode = (typeof IMSI_ERROR_CODES)[number];

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

const SEPARATORS = /[\s\-.]+/gu;
const DIGITS = /^[0-9]*$/;

function reject(input: string, code: ImsiErrorCode, message: string): RejectedImsi {
  return { ok: false, input, error: { code, message } };
}

/** Checks the shape of one IMSI: digits only (spaces, dashes, dots and full-width digits aside), 14 or 15 of them. Never throws. */
export function parseImsi(input: string): ParsedImsi | RejectedImsi {
  if (typeof input !== "string") return reject(String(input), "invalid_characters", "the IMSI must be a string");
  const value = (halfWidth(input) ?? input).replace(SEPARATORS, "");
  if (value.length === 0) return reject(input, "empty", "the IMSI is empty");
  if (!DIGITS.test(value)) return reject(input, "invalid_characters", "an IMSI holds only digits (spaces and dashes aside)");
  if (value.length < IMSI_MIN_LENGTH) return reject(input, "too_short", `the IMSI has ${value.length} digits; an IMSI has 14 or 15`);
  if (value.length > IMSI_MAX_LENGTH) return reject(input, "too_long", `the IMSI has ${value.length} digits; an IMSI has 14 or 15`);
  return { ok: true, imsi: value, mcc: value.slice(0, 3) };
}
