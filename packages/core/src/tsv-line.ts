// How a row is written for cut, awk and sort when the output is piped (the `iccid` CLI's views and
// `iccid-server`'s lists): one record per line, a tab between fields, no header, no colour (like gh).
// A tab or line break inside a value would shift fields or split the record, so it becomes a space; a
// control character is written out, as on a terminal (visible-text.ts): the pipe may end in one.

import { visibleText } from "./visible-text.js";

/** A value as one tab-separated field: its tabs and line breaks made spaces, its controls written out. */
export function tsvCell(cell: string): string {
  return visibleText(cell);
}

export function tsvLine(cells: readonly string[]): string {
  return cells.map(tsvCell).join("\t") + "\n";
}

export function tsvText(rows: readonly (readonly string[])[]): string {
  return rows.map(tsvLine).join("");
}
