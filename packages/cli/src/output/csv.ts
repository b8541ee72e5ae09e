import { stringify } from "csv-stringify/sync";

// Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV injection"). A leading
// apostrophe makes Excel, LibreOffice and Google Sheets show the text as typed instead.
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

export function neutraliseFormula(cell: string): string {
  return FORMULA_TRIGGER.test(cell) ? `'${cell}` : cell;
}

/**
 * Turns records into CSV text (RFC 4180 quoting, "\n" line ends), every cell neutralised. One call per
 * chunk of rows keeps the cost of a write per chunk, not per row.
 */
export function csvText(records: readonly (readonly string[])[]): string {
  if (records.length === 0) return "";
  // Neutralised as csv-stringify casts each cell, so no copy of the records is made.
  return stringify(records as string[][], { eof: true, record_delimiter: "unix", cast: { string: neutraliseFormula } });
}
