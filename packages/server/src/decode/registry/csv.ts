import { readFileSync } from "node:fs";
import { CsvQuoteNotClosedError, readCsv } from "@iccid/core/grammar";

export class RegistryDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegistryDataError";
  }
}

export interface CsvFile {
  name: string;
  text: string;
}

/** Reads one registry data file. */
export function readDataFile(dir: URL, name: string): CsvFile {
  return { name, text: readFileSync(new URL(name, dir), "utf8") };
}

const LATIN1 = /^[\x00-\xff]*$/;

/**
 * The value as a string of its own, stored one byte per character where it can be. A file that holds one
 * character beyond Latin-1 is read as a two-byte string, and every slice of it stays two-byte: names and
 * prefixes from it would make every answer they go into two-byte, which the server's UTF-8 writes encode
 * more slowly than one-byte strings.
 */
function ownString(value: string): string {
  return LATIN1.test(value) ? Buffer.from(value, "latin1").toString("latin1") : value;
}

/** The file's records that hold anything but blanks, each with the line it starts on. A problem names the file. */
function nonBlankRecords(file: CsvFile): Array<{ fields: string[]; line: number }> {
  let read: ReturnType<typeof readCsv>;
  try {
    read = readCsv(file.text);
  } catch (error) {
    if (error instanceof CsvQuoteNotClosedError) throw new RegistryDataError(`${file.name} line ${error.line}: a quoted field is not closed`);
    throw error;
  }
  return read.records.flatMap((fields, i) => (fields.every((f) => f.trim() === "") ? [] : [{ fields, line: read.lines[i]! }]));
}

/**
 * The rows of a registry CSV as records, after checking that its header holds `columns` (extra columns are
 * allowed; an `optional` column the header lacks reads as ""). A problem names the file, and the line where
 * there is one.
 */
export function csvRecords<C extends string>(
  file: CsvFile,
  columns: readonly C[],
  optional: readonly C[] = [],
): Array<Record<C, string> & { line: number }> {
  const rows = nonBlankRecords(file);
  const header = (rows[0]?.fields ?? []).map((h) => h.trim());
  const at = columns.map((column) => {
    const index = header.indexOf(column);
    if (index < 0 && !optional.includes(column)) throw new RegistryDataError(`${file.name}: the header has no column "${column}" (it has ${header.join(",")})`);
    return index;
  });
  return rows.slice(1).map(({ fields, line }) => {
    const record = { line } as Record<C, string> & { line: number };
    columns.forEach((column, c) => {
      (record as Record<string, string>)[column] = at[c]! < 0 ? "" : ownString((fields[at[c]!] ?? "").trim());
    });
    return record;
  });
}

/** A data cell as RFC 4180 writes it: quoted, its quotes doubled, when it holds a comma, a quote or a line break. */
function dataCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A registry CSV file's text: the header, then one line per row, each line ended by a line feed. */
export function csvText(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [header, ...rows].map((row) => `${row.map(dataCell).join(",")}\n`).join("");
}
