export interface NormalizedIccid {
  /** The number after trimming, dropping separators, upper-casing and stripping trailing `F` padding. */
  value: string;
  /** True when trailing `F` padding was removed. */
  paddingStripped: boolean;
}

// Spaces (any Unicode whitespace), dashes and dots are separators people type or paste; they never carry
// meaning in an ICCID.
const SEPARATORS = /[\s\-.]+/gu;
const TRAILING_PADDING = /F+$/;
const ALREADY_NORMAL = /^[0-9]+$/;

/** Normalises an ICCID as written by a person: trim, drop separators, uppercase, strip trailing `F`. */
export function normalizeIccid(input: string): NormalizedIccid {
  // Most ICCIDs arrive as plain digits, which normalise to themselves: one test instead of four passes.
  if (ALREADY_NORMAL.test(input)) return { value: input, paddingStripped: false };
  const compact = input.trim().replace(SEPARATORS, "").toUpperCase();
  const value = compact.replace(TRAILING_PADDING, "");
  return { value, paddingStripped: value.length !== compact.length };
}
