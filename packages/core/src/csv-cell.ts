// How a cell is written in the CSV this project produces: the server's CSV batch answer, and the `iccid`
// CLI's CSV output. One statement of the rule, so that a row reads the same wherever it was written.
//
// Spreadsheets run a cell that starts with = + - @, a tab or a carriage return as a formula (OWASP "CSV
// injection"). A leading apostrophe makes Excel, LibreOffice and Google Sheets show the text as typed
// instead. Then RFC 4180: a cell holding a comma, a quote or a line break is quoted, its quotes doubled.

/** True when a cell whose first character has this code would run as a formula (NaN, an empty cell: false). */
export function startsFormula(firstCharCode: number): boolean {
  const c = firstCharCode;
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13; // = + - @ \t \r
}

export function neutraliseFormula(cell: string): string {
  return startsFormula(cell.charCodeAt(0)) ? `'${cell}` : cell;
}

/** True when the character with this code makes a cell need quotes: a quote, a comma or a line break. */
export function needsQuotes(charCode: number): boolean {
  return charCode === 34 || charCode === 44 || charCode === 10 || charCode === 13;
}

const QUOTE = /"/g;

/**
 * One cell as CSV: neutralised (see neutraliseFormula), then quoted when it holds a comma, a quote or a
 * line break. A scan of char codes, no regex or copy for the plain cells that nearly every cell is: a batch
 * of millions of rows calls it for each of them.
 */
export function csvCell(cell: string): string {
  const n = cell.length;
  if (n === 0) return cell;
  let i = 0;
  while (i < n && !needsQuotes(cell.charCodeAt(i))) i++;
  const neutral = neutraliseFormula(cell);
  return i === n ? neutral : `"${neutral.replace(QUOTE, '""')}"`;
}

/** One record as a CSV line, "\n" included. */
export function csvLine(record: readonly string[]): string {
  let line = "";
  for (let i = 0; i < record.length; i++) line += (i === 0 ? "" : ",") + csvCell(record[i] ?? "");
  return line + "\n";
}
