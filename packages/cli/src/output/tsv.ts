// Piped output is for cut, awk and sort: one record per line, tab between fields, no header, no colour
// (like gh). A tab or line break inside a value would shift fields, so it becomes a space.
const FIELD_BREAKERS = /[\t\r\n]/g;

export function tsvLine(cells: readonly string[]): string {
  return cells.map((cell) => cell.replace(FIELD_BREAKERS, " ")).join("\t") + "\n";
}

export function tsvText(rows: readonly (readonly string[])[]): string {
  return rows.map(tsvLine).join("");
}
