// How a file of SIMs is read as text, from its first bytes: the one rule of `iccid batch` and the account
// page's upload, so that both take and refuse the same files.

/**
 * What a file's first block says of it: UTF-16 text (little-endian, by its byte order mark), UTF-8 text
 * (with or without a byte order mark), not text (a NUL byte: a spreadsheet, an image, an archive), or
 * text in another encoding (bytes that are not UTF-8, as Excel on Windows writes a plain "CSV").
 */
export type FileText = "utf-16le" | "utf-8" | "binary" | "not-utf-8";

/** The kind of the file whose first block (any length; a character cut at its end is fine) is `first`. */
export function fileTextOf(first: Uint8Array): FileText {
  if (first[0] === 0xff && first[1] === 0xfe) return "utf-16le"; // UTF-16 holds NUL bytes by nature
  if (first.includes(0)) return "binary";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(first, { stream: true });
    return "utf-8";
  } catch {
    return "not-utf-8";
  }
}

/** Why the file `name` of that kind cannot be read as CSV, in words for its owner; undefined when it can. */
export function unreadableFileText(name: string, kind: FileText): string | undefined {
  if (kind === "binary") return `${name} is not a text file (CSV is text; is this a spreadsheet or an archive?)`;
  if (kind === "not-utf-8") return `${name} is not UTF-8 text; save it as UTF-8 (in Excel: "CSV UTF-8") and try again`;
  return undefined;
}
