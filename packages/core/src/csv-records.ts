import { CsvSeparatorError, detectSeparator, isCsvSeparator, separatorHint } from "./csv-separator.js";

// The one CSV reader of the project: `iccid batch`'s input and its resume file, and the server's issuer
// registry. It reads decoded text, takes each run of ordinary characters as one slice, and keeps its state
// between calls, so a file is read in blocks of any size.
//
// It gives the same records as csv-parse with the options bom, relax_column_count, relax_quotes and
// skip_empty_lines (the field separator given, a comma by default; double quote; the record delimiter
// discovered from the first line end outside quotes); csv-records.test.ts checks that on generated input,
// cut into random blocks. A reader told to detect the separator takes the one of SEPARATORS that the first
// line (blank lines aside) holds most of outside quotes, a comma when none is ahead (csv-separator.ts). A
// first line `sep=X` (the hint Excel reads) is not a record: it names the separator, unless one was given.
// In short: a field that starts with a quote runs to the quote that is followed by the separator, the record
// delimiter or the end, with "" for a quote inside it; any other quote is text (relax_quotes), and a
// quote that closes the field early puts the field back as text, quotes included. The first of \r\n, \n
// or \r outside quotes is the record delimiter; another line end outside quotes is text. Blank lines are
// skipped; a line of only "" is a record with one empty field. A reader told to skip empty records also
// skips a record whose every field is empty or whitespace, as csv-parse's skip_records_with_empty_values
// does (the rows of separators alone that a spreadsheet writes below its data). Lines are counted as a text
// editor shows them: each record delimiter, and each \n elsewhere, ends one.

const QUOTE = 34;
const CR = 13;
const LF = 10;

/** The text ended inside a quoted field; `line` is where the record holding it starts. */
export class CsvQuoteNotClosedError extends Error {
  constructor(readonly line: number) {
    super(`Quote Not Closed: the parsing is finished with an opening quote at line ${line}`);
    this.name = "CsvQuoteNotClosedError";
  }
}

/** How a CsvRecordReader reads, beside its separator. */
export interface CsvReadOptions {
  /** Skip a record whose every field is empty or whitespace, as a blank line is (false by default). */
  skipEmptyRecords?: boolean;
}

export class CsvRecordReader {
  /** The separator's character code, once known. */
  private separator: number | undefined;
  private readonly skipEmptyRecords: boolean;
  private field = "";
  private record: string[] = [];
  private quoting = false;
  /** The current field was quoted (so an empty line holding only "" is a record, not a blank line). */
  private wasQuoting = false;
  /** The record delimiter, once the first line end outside quotes has shown it. */
  private delimiter: string | undefined;
  /** The end of the last block, when deciding about it needs characters not read yet. */
  private rest = "";
  private line = 1;
  private recordLine = 1;
  /** The start of the text was read: its byte order mark, its `sep=X` line and its separator (start()). */
  private begun = false;

  /** `separator`: the field separator, one character other than a quote or a line end, or "detect" (above). */
  constructor(separator = ",", { skipEmptyRecords = false }: CsvReadOptions = {}) {
    this.skipEmptyRecords = skipEmptyRecords;
    if (separator === "detect") return;
    if (!isCsvSeparator(separator)) throw new CsvSeparatorError(separator);
    this.separator = separator.charCodeAt(0);
  }

  /** The field separator: the one given, or the one detected (undefined until the first line is read). */
  get fieldSeparator(): string | undefined {
    return this.separator === undefined ? undefined : String.fromCharCode(this.separator);
  }

  /**
   * Reads the next block of text and appends every record it completes to `out` (and, given `lines`, the
   * line each record starts on, from 1). With `end`, the text is the last: the final record is completed,
   * and a quote still open is an error.
   */
  write(text: string, end: boolean, out: string[][], lines?: number[]): void {
    let s = this.rest.length > 0 ? this.rest + text : text;
    this.rest = "";
    if (!this.begun) {
      const rest = this.start(s, end);
      if (rest === undefined) {
        this.rest = s; // the first line is not whole yet
        return;
      }
      s = rest;
    }
    const sep = this.separator!;
    const n = s.length;
    let pos = 0;
    while (pos < n) {
      const c = s.charCodeAt(pos);
      if (this.quoting) {
        if (c !== QUOTE) {
          let j = s.indexOf('"', pos);
          if (j < 0) j = n;
          for (let k = s.indexOf("\n", pos); k >= 0 && k < j; k = s.indexOf("\n", k + 1)) this.line++;
          this.field += s.slice(pos, j);
          pos = j;
          continue;
        }
        // A quote in a quoted field: an escaped quote, the closing one, or (relax_quotes) text.
        if (!end && pos + 2 >= n) break;
        const next = pos + 1 < n ? s.charCodeAt(pos + 1) : -1;
        if (next === QUOTE) {
          this.field += '"';
          pos += 2;
          continue;
        }
        this.quoting = false;
        this.wasQuoting = true;
        if (!(next === -1 || next === sep || this.delimiterAt(s, pos + 1) > 0)) this.field = `"${this.field}"`;
        pos++;
        continue;
      }
      if (c === sep) {
        this.record.push(this.field);
        this.field = "";
        this.wasQuoting = false;
        pos++;
        continue;
      }
      if (c === QUOTE) {
        if (this.field.length === 0) this.quoting = true;
        else this.field += '"'; // relax_quotes: a quote inside an unquoted field is text
        pos++;
        continue;
      }
      if (c === CR || c === LF) {
        if (!end && pos + 1 >= n) break; // "\r" may be the start of "\r\n"
        const length = this.delimiterAt(s, pos);
        if (length === 0) {
          if (c === LF) this.line++;
          this.field += s[pos]; // a line end that is not the record delimiter is text
          pos++;
          continue;
        }
        this.line++;
        pos += length;
        this.endRecord(out, lines); // nothing, on a blank line
        this.recordLine = this.line;
        continue;
      }
      let j = pos + 1;
      for (; j < n; j++) {
        const d = s.charCodeAt(j);
        if (d === sep || d === QUOTE || d === CR || d === LF) break;
      }
      this.field += s.slice(pos, j);
      pos = j;
    }
    if (pos < n) {
      this.rest = s.slice(pos);
      return;
    }
    if (!end) return;
    if (this.quoting) throw new CsvQuoteNotClosedError(this.recordLine);
    this.endRecord(out, lines);
  }

  /**
   * Reads the start of the text: drops a byte order mark and a `sep=X` line, and settles the separator.
   * Answers the text left to read as records, or undefined when the first line is not whole yet.
   */
  private start(s: string, end: boolean): string | undefined {
    if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    const hint = separatorHint(s, end);
    if (hint === undefined) return undefined;
    if (hint) s = s.slice(hint.length);
    const separator = this.separator ?? (hint ? hint.separator.charCodeAt(0) : detectSeparator(s, end));
    if (separator === undefined) return undefined;
    this.separator = separator;
    this.begun = true;
    if (hint) this.recordLine = ++this.line;
    return s;
  }

  /**
   * Completes the record read so far, unless nothing was (a blank line, or the end after a line end); one
   * whose fields are all empty or whitespace is dropped when the reader skips empty records.
   */
  private endRecord(out: string[][], lines: number[] | undefined): void {
    if (!this.wasQuoting && this.record.length === 0 && this.field.length === 0) return;
    this.record.push(this.field);
    if (!(this.skipEmptyRecords && this.record.every((field) => field.trim() === ""))) {
      out.push(this.record);
      lines?.push(this.recordLine);
    }
    this.field = "";
    this.record = [];
    this.wasQuoting = false;
  }

  /** Length of the record delimiter at `pos` (0: none). The first line end seen decides which it is. */
  private delimiterAt(s: string, pos: number): number {
    if (this.delimiter === undefined) {
      const c = s.charCodeAt(pos);
      if (c === CR) this.delimiter = s.charCodeAt(pos + 1) === LF ? "\r\n" : "\r";
      else if (c === LF) this.delimiter = "\n";
      else return 0;
      return this.delimiter.length;
    }
    return s.startsWith(this.delimiter, pos) ? this.delimiter.length : 0;
  }
}

/** Every record of a whole text, and the line each starts on (a CsvQuoteNotClosedError if a quote is left open). */
export function readCsv(text: string): { records: string[][]; lines: number[] } {
  const records: string[][] = [];
  const lines: number[] = [];
  new CsvRecordReader().write(text, true, records, lines);
  return { records, lines };
}
