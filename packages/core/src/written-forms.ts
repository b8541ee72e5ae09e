// Forms a number takes when it was typed on a phone or copied out of a document, a spreadsheet or chat:
// full-width characters (an East Asian input method writes ８９４４…) and quotes around the number.

/** The full-width forms of ASCII `!` to `~` (U+FF01 to U+FF5E): each is its ASCII character + 0xFEE0. */
const HAS_FULL_WIDTH = /[\uFF01-\uFF5E]/;
const FULL_WIDTH = /[\uFF01-\uFF5E]/g;
const FULL_WIDTH_OFFSET = 0xfee0;

/** The input with full-width characters written as their ASCII forms, or null when it has none. */
export function halfWidth(text: string): string | null {
  if (!HAS_FULL_WIDTH.test(text)) return null;
  return text.replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - FULL_WIDTH_OFFSET));
}

// Straight, typographic and low quotes, single and double, and guillemets: whichever pair a word processor
// or a locale put around the number.
const QUOTE = /^["'\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F\u00AB\u00BB\u2039\u203A]$/u;

/**
 * The text without the quotes around it (any kind at either end, layer by layer), or null when it has none.
 * A spreadsheet's text formula counts as quotes: ="…", as exports write long numbers so that a spreadsheet
 * keeps their digits.
 */
export function unquoted(text: string): string | null {
  let inner = text.length >= 3 && text.startsWith("=") && QUOTE.test(text.charAt(1)) && QUOTE.test(text.charAt(text.length - 1)) ? text.slice(1) : text;
  while (inner.length >= 2 && QUOTE.test(inner.charAt(0)) && QUOTE.test(inner.charAt(inner.length - 1))) inner = inner.slice(1, -1);
  return inner === text ? null : inner;
}

// Spaces (any Unicode whitespace), dashes and dots are separators people type or paste between groups of
// digits; they never carry meaning in an ICCID, an EID or an IMSI.
const SEPARATORS = /[\s\-.]+/gu;

/** The text without the separators people put between groups of digits. */
export function withoutSeparators(text: string): string {
  return text.replace(SEPARATORS, "");
}
