// How a row is written for cut, awk and sort when the output is piped (the `iccid` CLI's views and
// `iccid-server`'s lists): one record per line, a tab between fields, no header, no colour (like gh).
// A tab or line break inside a value would shift fields or split the record, so it becomes a space.

const FIELD_BREAKERS = /[\t\r\n]/g;

/** A value as one tab-separated field: its tabs and line breaks made spaces. */
export function tsvCell(cell: string): string {
  return cell.replace(FIELD_BREAKERS, " ");
}

export function tsvLine(cells: readonly string[]): string {
  return cells.map(tsvCell).join("\t") + "\n";
}

export function tsvText(rows: readonly (readonly string[])[]): string {
  return rows.map(tsvLine).join("");
}
