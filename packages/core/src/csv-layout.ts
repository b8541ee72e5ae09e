import { LOOKUP_ROW_COLUMNS } from "./lookup-row.js";
import { normalizeIccid } from "./normalize.js";

// Where the ICCIDs are in a CSV of SIMs, and the header of the file of answers made from it: one rule for
// `iccid batch` and the account page's upload, so the two read the same file the same way and write the
// same columns.

/** How an input CSV is laid out: whether its first record is a header, and which column holds ICCIDs. */
export interface CsvLayout {
  hasHeader: boolean;
  /** Names of the input columns as written to the output (the header, or column_1…column_N). */
  columns: string[];
  iccidIndex: number;
}

/**
 * Why a layout could not be decided: the column asked for is past the last one or named nowhere, or no
 * column could be told to hold the ICCIDs. The message says it without naming how the column was asked for.
 */
export class CsvLayoutError extends Error {
  constructor(
    readonly reason: "column_out_of_range" | "column_not_found" | "undecided",
    message: string,
  ) {
    super(message);
    this.name = "CsvLayoutError";
  }
}

// Header names that mean "the ICCID column", compared lowercased with everything but letters and digits
// removed, so "ICCID", "Sim Number" and "sim_iccid" all match. Ranked: a name that says ICCID before one
// that says only SIM, which an inventory also uses for its own row id ("sim_id") or a phone number.
const ICCID_COLUMN_NAMES = [
  "iccid",
  "iccids",
  "iccidnumber",
  "iccidno",
  "simiccid",
  "icc",
  "iccnumber",
  "simserial",
  "simserialnumber",
  "simcardnumber",
  "simcard",
  "simnumber",
  "simno",
  "sim",
  "simid",
];

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** A cell that reads as a number rather than a name: a digit then at least 9 more hex digits. */
function looksLikeIccid(cell: string | undefined): boolean {
  if (cell === undefined) return false;
  return /^\d[0-9A-F]{9,}$/.test(normalizeIccid(cell).value);
}

function numbered(width: number): string[] {
  return Array.from({ length: width }, (_, i) => `column_${i + 1}`);
}

function withHeader(first: string[], iccidIndex: number): CsvLayout {
  return { hasHeader: true, columns: first.map((name, i) => name.trim() || `column_${i + 1}`), iccidIndex };
}

function withoutHeader(first: string[], iccidIndex: number): CsvLayout {
  return { hasHeader: false, columns: numbered(first.length), iccidIndex };
}

const shownCells = (record: string[]) => record.map((c) => JSON.stringify(c)).join(", ");

function fromColumn(column: string, first: string[]): CsvLayout {
  const byName = first.findIndex((cell) => cell.trim() === column.trim());
  const byLooseName = byName >= 0 ? byName : first.findIndex((cell) => squash(cell) === squash(column));
  if (byLooseName >= 0) return withHeader(first, byLooseName);
  if (/^[1-9]\d*$/.test(column)) {
    const index = Number(column) - 1;
    if (index >= first.length) throw new CsvLayoutError("column_out_of_range", `the file has only ${first.length} column(s)`);
    return looksLikeIccid(first[index]) ? withoutHeader(first, index) : withHeader(first, index);
  }
  throw new CsvLayoutError("column_not_found", `no such column in the header (${shownCells(first)}); a 1-based number works too`);
}

/** The indexes of the header's cells named like an ICCID column, the best-ranked name first. */
function namedColumns(header: string[]): number[] {
  const rank = (cell: string) => ICCID_COLUMN_NAMES.indexOf(squash(cell));
  return header.flatMap((cell, i) => (rank(cell) >= 0 ? [i] : [])).sort((a, b) => rank(header[a]!) - rank(header[b]!));
}

/**
 * Decides the layout from the first two records. With `column` (a header name, loosely compared, or a
 * 1-based number) that column holds the ICCIDs. Otherwise a first record holding something that reads as
 * an ICCID is data; else it is a header, and the ICCID column is the one named like it (of several, the
 * first whose next value reads as an ICCID, else the best-ranked name), the only one, or the one whose next
 * value reads as an ICCID. Throws CsvLayoutError when it cannot tell.
 */
export function detectCsvLayout(first: string[], second: string[] | undefined, column: string | undefined): CsvLayout {
  if (column !== undefined) return fromColumn(column, first);
  const named = namedColumns(first);
  if (named.length > 0) return withHeader(first, named.find((i) => looksLikeIccid(second?.[i])) ?? named[0]!);
  const dataIndex = first.findIndex((cell) => looksLikeIccid(cell));
  if (dataIndex >= 0) return withoutHeader(first, dataIndex);
  if (first.length === 1) return withHeader(first, 0);
  const nextIndex = second ? second.findIndex((cell) => looksLikeIccid(cell)) : -1;
  if (nextIndex >= 0) return withHeader(first, nextIndex);
  throw new CsvLayoutError("undecided", `cannot tell which column holds the ICCIDs (first row: ${shownCells(first)})`);
}

/**
 * The header of a file of answers: the input's columns, then the lookup row's. A lookup column whose name
 * the input already uses (an input "iccid" or "ICCID" column is common) gets a `lookup_` prefix, as often
 * as it takes, so that names stay unique without regard to case, as spreadsheets and SQL imports read them.
 */
export function answersHeader(inputColumns: readonly string[]): string[] {
  const taken = new Set(inputColumns.map((name) => name.toLowerCase()));
  const unique = (name: string): string => (taken.has(name) ? unique(`lookup_${name}`) : name);
  return [...inputColumns, ...LOOKUP_ROW_COLUMNS.map(unique)];
}
