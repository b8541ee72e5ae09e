/** Item-level error codes of the ICCID grammar (docs/api.md, "How an ICCID is read"). */
export const ICCID_ERROR_CODES = ["empty", "invalid_characters", "invalid_mii", "too_short", "too_long"] as const;
export type IccidErrorCode = (typeof ICCID_ERROR_CODES)[number];

/** Warnings that let a number pass but say something about its shape. */
export const ICCID_WARNING_CODES = [
  "padding_stripped",
  "non_standard_length",
  "hex_digits",
  "modem_response",
  "nibble_swapped",
  "full_width_digits",
  "quotes_stripped",
] as const;
export type IccidWarningCode = (typeof ICCID_WARNING_CODES)[number];

/**
 * Every warning code a lookup's answer may carry: the grammar's, then the decoder's (`ambiguous_numbering`:
 * the digits read as two countries' numbering, and the warning names both candidates; `shared_calling_code`:
 * the calling code is several countries' and nothing else in the number says which), then the one about
 * the IMSI sent with the ICCID (`imsi_country_mismatch`).
 */
export const LOOKUP_WARNING_CODES = [...ICCID_WARNING_CODES, "ambiguous_numbering", "shared_calling_code", "imsi_country_mismatch"] as const;
export type LookupWarningCode = (typeof LOOKUP_WARNING_CODES)[number];

export const ICCID_MIN_LENGTH = 18;
export const ICCID_MAX_LENGTH = 22;
/** The telecom major industry identifier every ICCID starts with. */
export const TELECOM_MII = "89";
