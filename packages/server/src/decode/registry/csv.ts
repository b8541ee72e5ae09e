import { readFileSync } from "node:fs";

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
 * prefixes from it would make every answer they go into two-byte, which costs the server's UTF-8 writes
 * about twice as much per byte.
 */
function ownString(value: string): string {
  return LATIN1.test(value) ? Buffer.from(value, "latin1").toString("latin1") : value;
}

/** The fields of one CSV line whose quoted fields may hold commas and doubled quotes. */
function quotedFields(line: string, where: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (line[i + 1] === '"') (field += '"'), i++;
      else quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") fields.push(field), (field = "");
    else field += ch;
  }
  if (quoted) throw new RegistryDataError(`${where}: a quoted field is not closed on its line`);
  fields.push(field);
  return fields;
}

/**
 * CSV rows, one per line (registry rows never break a field across lines). Hand-rolled because the
 * registry is read at every server start, and csv-parse takes ~40 µs a row where a split takes ~1.
 */
function parseCsv(text: string, name: string): Array<{ fields: string[]; line: number }> {
  const rows: Array<{ fields: string[]; line: number }> = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    rows.push({ fields: line.includes('"') ? quotedFields(line, `${name} line ${i + 1}`) : line.split(","), line: i + 1 });
  }
  return rows;
}

/**
 * The rows of a registry CSV as records, after checking that its header holds `columns` (extra columns are
 * allowed). A problem names the file, and the line where there is one.
 */
export function csvRecords<C extends string>(file: CsvFile, columns: readonly C[]): Array<Record<C, string> & { line: number }> {
  const rows = parseCsv(file.text, file.name);
  const header = (rows[0]?.fields ?? []).map((h) => h.trim());
  const at = columns.map((column) => {
    const index = header.indexOf(column);
    if (index < 0) throw new RegistryDataError(`${file.name}: the header has no column "${column}" (it has ${header.join(",")})`);
    return index;
  });
  return rows.slice(1).map(({ fields, line }) => {
    const record = { line } as Record<C, string> & { line: number };
    columns.forEach((column, c) => {
      (record as Record<string, string>)[column] = ownString((fields[at[c]!] ?? "").trim());
    });
    return record;
  });
}
