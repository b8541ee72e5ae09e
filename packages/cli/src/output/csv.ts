// Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV injection"). A leading
// apostrophe makes Excel, LibreOffice and Google Sheets show the text as typed instead.
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

export function neutraliseFormula(cell: string): string {
  return FORMULA_TRIGGER.test(cell) ? `'${cell}` : cell;
}

const NEEDS_QUOTES = /[",\n\r]/;
const QUOTE = /"/g;

/**
 * One cell as CSV: neutralised (see neutraliseFormula), then quoted per RFC 4180 when it holds a comma, a
 * quote or a line break (quotes doubled). The same output as csv-stringify with that cast, made by hand
 * because the batch writer calls it some thirty times a row: a char-code test and one regex, no arrays.
 */
export function csvCell(cell: string): string {
  if (cell.length === 0) return cell;
  const first = cell.charCodeAt(0);
  // = + - @ \t \r
  if (first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13) cell = `'${cell}`;
  if (!NEEDS_QUOTES.test(cell)) return cell;
  return `"${cell.replace(QUOTE, '""')}"`;
}

/** One record as a CSV line, "\n" included. */
export function csvLine(record: readonly string[]): string {
  let line = "";
  for (let i = 0; i < record.length; i++) line += (i === 0 ? "" : ",") + csvCell(record[i] ?? "");
  return line + "\n";
}

/**
 * Turns records into CSV text (RFC 4180 quoting, "\n" line ends), every cell neutralised. One call per
 * chunk of rows keeps the cost of a write per chunk, not per row.
 */
export function csvText(records: readonly (readonly string[])[]): string {
  let text = "";
  for (const record of records) text += csvLine(record);
  return text;
}
