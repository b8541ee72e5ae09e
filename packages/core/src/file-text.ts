// How a file of SIMs is read as text, from its first bytes: the one rule of `iccid batch` and the account
// page's upload, so that both take and refuse the same files.

import { counted, wasOrWere } from "./counted.js";

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

/** A file that cannot be read as CSV text: not text, or not UTF-8 (the message says which, and what to do). */
export class UnreadableFileText extends Error {
  override name = "UnreadableFileText";
}

const REPLACEMENT = "\uFFFD";

/**
 * A file's text, block by block, in the encoding its first block showed (fileTextOf: UTF-16LE, else
 * UTF-8), a byte order mark kept for the CSV reader to drop. A file is judged by its first block; past it,
 * bytes that are not UTF-8 are read as U+FFFD and counted in `notUtf8`, apart from the U+FFFD the file
 * holds as UTF-8 (EF BF BD), however the blocks cut them.
 */
export class FileTextDecoder {
  /** The characters read so far that were not UTF-8. */
  notUtf8 = 0;
  private readonly decoder: InstanceType<typeof TextDecoder>;
  private readonly utf8: boolean;
  /** The last two bytes read, where a U+FFFD cut by the blocks' end begins. */
  private tail = new Uint8Array(0);

  /**
   * The decoder of the file `name` whose first block is `first`: a file that is not text (an image, a
   * spreadsheet, a zip) or not UTF-8 would read as rows of garbage, so it is refused, UnreadableFileText
   * saying why (unreadableFileText).
   */
  static of(first: Uint8Array, name: string): FileTextDecoder {
    const kind = fileTextOf(first);
    const why = unreadableFileText(name, kind);
    if (why) throw new UnreadableFileText(why);
    return new FileTextDecoder(kind);
  }

  constructor(kind: FileText) {
    this.utf8 = kind !== "utf-16le";
    this.decoder = new TextDecoder(this.utf8 ? "utf-8" : "utf-16le", { ignoreBOM: true });
  }

  /** The text of the next block; without one, the end of the text (a character left cut is U+FFFD). */
  decode(block?: Uint8Array): string {
    const bytes = block ?? new Uint8Array(0);
    const text = this.decoder.decode(bytes, { stream: block !== undefined });
    if (this.utf8) this.count(text, bytes);
    return text;
  }

  private count(text: string, block: Uint8Array): void {
    if (text.includes(REPLACEMENT)) {
      let made = 0;
      for (let at = text.indexOf(REPLACEMENT); at >= 0; at = text.indexOf(REPLACEMENT, at + 1)) made++;
      const bytes = new Uint8Array(this.tail.length + block.length);
      bytes.set(this.tail);
      bytes.set(block, this.tail.length);
      for (let i = 0; i + 2 < bytes.length; i++) {
        if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) made--;
      }
      this.notUtf8 += Math.max(0, made);
    }
    this.tail = block.length >= 2 ? block.slice(-2) : Uint8Array.from([...this.tail, ...block]).slice(-2);
  }
}

/** The note for a file `name` that held `count` characters that were not UTF-8 past its first block. */
export function notUtf8Note(name: string, count: number): string {
  const were = wasOrWere(count);
  return `${counted(count, "character")} of ${name} past its start ${were} not UTF-8 and ${were} read as "${REPLACEMENT}"; save it as UTF-8 (in Excel: "CSV UTF-8") to keep them`;
}
