// Text from elsewhere (an issuer name, a key's name, a User-Agent, an address) as a terminal shows it: a
// control character must not act (ESC starts sequences that retitle a window, clear the screen or fake
// other output), so each is written out instead, `\x1B`; so are the characters that reorder or break what
// follows them (bidirectional overrides and isolates, the line and paragraph separators). Tabs and line
// breaks become spaces: they would break a table's row or a tab-separated record.

/** One pass over the text: a layout character, or one that acts. */
const SPECIAL = /[\x00-\x1F\x7F-\x9F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/g;

function written(char: string): string {
  if (char === "\t" || char === "\n" || char === "\r") return " ";
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, "0")}` : `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `text` with nothing in it that a terminal acts on: controls written out, tabs and line breaks made spaces. */
export function visibleText(text: string): string {
  return text.replace(SPECIAL, written);
}
