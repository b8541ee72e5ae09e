import { normalizeIccid } from "@iccid/core/grammar";
import { UsageError } from "../errors.js";

/** How an input CSV is laid out: whether its first record is a header, and which column holds ICCIDs. */
export interface Layout {
  hasHeader: boolean;
  /** Names of the input columns as written to the output (the header, or column_1…column_N). */
  columns: string[];
  iccidIndex: number;
}

// Header names that mean "the ICCID column", compared lowercased with everything but letters and digits
// removed, so "ICCID", "Sim Number" and "sim_iccid" all match.
const ICCID_COLUMN_NAMES = new Set([
  "iccid",
  "iccids",
  "iccidnumber",
  "iccidno",
  "simiccid",
  "sim",
  "simid",
  "simnumber",
  "simno",
  "simcard",
  "simcardnumber",
  "simserial",
  "simserialnumber",
  "icc",
  "iccnumber",
]);

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** A cell that reads as a number rather than a name: a digit then at least 9 more hex digits. */
function looksLikeIccid(cell: string | undefined): boolean {
  if (cell === undefined) return false;
  return /^\d[0-9A-F]{9,}$/.test(normalizeIccid(cell).value);
}

function numbered(width: number): string[] {
  return Array.from({ length: width }, (_, i) => `column_${i + 1}`);
}

function withHeader(first: string[], iccidIndex: number): Layout {
  return { hasHeader: true, columns: first.map((name, i) => name.trim() || `column_${i + 1}`), iccidIndex };
}

function withoutHeader(first: string[], iccidIndex: number): Layout {
  return { hasHeader: false, columns: numbered(first.length), iccidIndex };
}

function fromColumnOption(column: string, first: string[]): Layout {
  const byName = first.findIndex((cell) => cell.trim() === column.trim());
  const byLooseName = byName >= 0 ? byName : first.findIndex((cell) => squash(cell) === squash(column));
  if (byLooseName >= 0) return withHeader(first, byLooseName);
  if (/^[1-9]\d*$/.test(column)) {
    const index = Number(column) - 1;
    if (index >= first.length) throw new UsageError(`--column ${column}: the file has only ${first.length} column(s)`);
    return looksLikeIccid(first[index]) ? withoutHeader(first, index) : withHeader(first, index);
  }
  const shown = first.map((c) => JSON.stringify(c)).join(", ");
  throw new UsageError(`--column ${JSON.stringify(column)}: no such column in the header (${shown}); a 1-based number works too`);
}

/**
 * Decides the layout from the first two records. A first record holding something that reads as an
 * ICCID is data; otherwise it is a header, and the ICCID column is the one named like it, the only
 * one, or the one whose next value reads as an ICCID.
 */
export function detectLayout(first: string[], second: string[] | undefined, column: string | undefined): Layout {
  if (column !== undefined) return fromColumnOption(column, first);
  const named = first.findIndex((cell) => ICCID_COLUMN_NAMES.has(squash(cell)));
  if (named >= 0) return withHeader(first, named);
  const dataIndex = first.findIndex((cell) => looksLikeIccid(cell));
  if (dataIndex >= 0) return withoutHeader(first, dataIndex);
  if (first.length === 1) return withHeader(first, 0);
  const nextIndex = second ? second.findIndex((cell) => looksLikeIccid(cell)) : -1;
  if (nextIndex >= 0) return withHeader(first, nextIndex);
  const shown = first.map((c) => JSON.stringify(c)).join(", ");
  throw new UsageError(`cannot tell which column holds the ICCIDs (first row: ${shown}); pass --column NAME or --column N`);
}
