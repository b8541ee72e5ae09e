// Spreadsheets run a cell that starts with = + - @, a tab or a carriage return as a formula (OWASP "CSV
// injection"). A leading apostrophe makes Excel, LibreOffice and Google Sheets show the text as typed
// instead. This is the one statement of that rule: csvCell and the batch sink's byte encoder both ask it.

/** True when a cell whose first character has this code would run as a formula (NaN, an empty cell: false). */
export function startsFormula(firstCharCode: number): boolean {
  const c = firstCharCode;
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13; // = + - @ \t \r
}

export function neutraliseFormula(cell: string): string {
  return startsFormula(cell.charCodeAt(0)) ? `'${cell}` : cell;
}

const NEEDS_QUOTES = /[",\n\r]/;
const QUOTE = /"/g;

/**
 * One cell as CSV: neutralised (see neutraliseFormula), then quoted per RFC 4180 when it holds a comma, a
 * quote or a line break (quotes doubled). The same output as csv-stringify with that cast, made by hand
 * because a batch of millions of rows may call it for many of its cells: a char-code test and one regex,
 * no arrays.
 */
export function csvCell(cell: string): string {
  if (cell.length === 0) return cell;
  cell = neutraliseFormula(cell);
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
