import { readModemAnswer } from "./modem-answer.js";
import { isRawEfIccid, swapNibbles } from "./nibble-swap.js";
import { halfWidth, unquoted, withoutSeparators } from "./written-forms.js";

export interface NormalizedIccid {
  /** The number after reading it out of a modem answer, un-swapping a raw dump, dropping separators,
   * upper-casing and stripping F filler. */
  value: string;
  /** True when F filler was removed (trailing, or leading). */
  paddingStripped: boolean;
  /** Where the F filler was: `trailing`, `leading` or `both`; null when there was none. */
  filler: "trailing" | "leading" | "both" | null;
  /** The response tag (`+CCID`, `+QCCID`, `^ICCID`, …) when the input was a modem's answer line. */
  modemTag: string | null;
  /** True when the input was a raw, nibble-swapped EF_ICCID dump (`98…`) and was swapped back. */
  nibbleSwapped: boolean;
  /** True when full-width characters (８９４４…) were read as their ASCII forms. */
  fullWidth: boolean;
  /** True when quotes around the number ("…", '…', “…”, «…») were removed. */
  quoted: boolean;
  /** True when `value` is known to hold decimal digits only (the common case, found without a second test). */
  digitsOnly: boolean;
}

const LEADING_FILLER = /^F+/;
const TRAILING_FILLER = /F+$/;
const ALREADY_NORMAL = /^89[0-9]*$/;

function plain(value: string): NormalizedIccid {
  return { value, paddingStripped: false, filler: null, modemTag: null, nibbleSwapped: false, fullWidth: false, quoted: false, digitsOnly: true };
}

/**
 * Normalises an ICCID as written by a person, a modem or a card reader: full-width characters as ASCII,
 * drop separators, uppercase, drop quotes around it, the ICCID out of a modem answer, strip leading F
 * filler, swap a raw EF_ICCID dump back, strip trailing F padding. Idempotent: the value normalises to itself.
 */
export function normalizeIccid(input: string): NormalizedIccid {
  // Plain digits after 89 normalise to themselves: they skip the passes below.
  return ALREADY_NORMAL.test(input) ? plain(input) : normalizeWritten(input);
}

/**
 * normalizeIccid for anything that is not already plain digits after 89. Filler or a modem answer can
 * wrap quotes that show only once they are gone (`F"…"F`): the passes then run again on what is left,
 * so that the value always normalises to itself.
 */
function normalizeWritten(input: string): NormalizedIccid {
  const first = onePass(input);
  if (unquoted(first.value) === null) return first;
  const again = normalizeWritten(first.value);
  return {
    value: again.value,
    paddingStripped: first.paddingStripped || again.paddingStripped,
    filler: first.filler ?? again.filler,
    modemTag: first.modemTag ?? again.modemTag,
    nibbleSwapped: first.nibbleSwapped || again.nibbleSwapped,
    fullWidth: first.fullWidth,
    quoted: true,
    digitsOnly: false,
  };
}

/** The passes, one by one. */
function onePass(input: string): NormalizedIccid {
  const narrow = halfWidth(input);
  const compacted = withoutSeparators(narrow ?? input).toUpperCase();
  const inner = unquoted(compacted);
  const whole = inner ?? compacted;
  // Filler is stripped before the answer is read, and again after: so a value never reads as an answer.
  const stripped = whole.replace(LEADING_FILLER, "");
  const answer = readModemAnswer(stripped);
  const compact = answer ? answer.payload : stripped;
  const unled = compact.replace(LEADING_FILLER, "");
  const unpadded = unled.replace(TRAILING_FILLER, "");
  // A dump's filler sits inside its last byte (`…F1`), so it shows only once the nibbles are swapped back.
  const nibbleSwapped = isRawEfIccid(unpadded);
  const value = nibbleSwapped ? swapNibbles(unpadded).replace(TRAILING_FILLER, "") : unpadded;
  const leading = unled.length !== compact.length || stripped.length !== whole.length;
  const trailing = unpadded.length !== unled.length || (nibbleSwapped && value.length !== unpadded.length);
  return {
    value,
    paddingStripped: leading || trailing,
    filler: leading ? (trailing ? "both" : "leading") : trailing ? "trailing" : null,
    modemTag: answer ? answer.tag : null,
    nibbleSwapped,
    fullWidth: narrow !== null,
    quoted: inner !== null,
    digitsOnly: false,
  };
}
