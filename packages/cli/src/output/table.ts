import { stripVTControlCharacters } from "node:util";
import { visibleText } from "@iccid/core/grammar";
import Table from "cli-table3";
import type { Palette } from "./colour.js";
import { wrapAfter } from "./wrap.js";

/** cli-table3 pads each cell with one space on either side. */
const PADDING = 2;
/** The narrowest a column gets (padding included): three characters, the last of them "…". */
const FLOOR = 3 + PADDING;

/** The width tables must fit: the terminal's, else $COLUMNS (set by shells, and by tests), else unlimited. */
export function terminalColumns(stdout: { columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (stdout.columns && stdout.columns > 0) return stdout.columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined;
}

/** The palette's colour codes (colour.ts), which a cell may carry around its text. */
const COLOUR = /(\x1b\[[0-9;]*m)/;

/**
 * A cell as the terminal gets it: every control character of its text written out (an issuer's or a
 * key's name, a User-Agent may hold any), but colour codes (the palette's) and the view's line breaks
 * kept. A colour code inside a name passes as well: it can colour, not move the cursor, clear the screen
 * or retitle the window.
 */
export function inertCell(cell: string): string {
  return cell
    .split("\n")
    .map((line) => line.split(COLOUR).map((part, i) => (i % 2 === 1 ? part : visibleText(part))).join(""))
    .join("\n");
}

/** The widest of `parts` as shown: colour codes take no room. */
const longest = (parts: readonly string[]) => Math.max(0, ...parts.map((part) => stripVTControlCharacters(part).length));

/** What a column needs: its longest line (natural) and its longest word (below that, cells are cut, not wrapped). */
export interface ColumnNeeds {
  natural: number;
  word: number;
}

export function columnNeeds(cells: readonly string[]): ColumnNeeds {
  const all = cells.flatMap((cell) => cell.split("\n"));
  return { natural: longest(all), word: longest(all.flatMap((line) => line.split(" "))) };
}

/** How wide the table is with every column at its natural width, borders included. */
const naturalWidth = (needs: readonly ColumnNeeds[]) => needs.reduce((sum, n) => sum + n.natural + PADDING, needs.length + 1);

/**
 * Column widths (padding included) that fit `width`, or undefined when the natural widths already fit.
 * The widest column gives up a character at a time: first down to its longest word (cells wrap at
 * spaces), then down to a few characters (cells are cut with "…"). The first column, what a row is (an
 * ICCID, a key id), gives way last.
 */
export function fitColumns(needs: readonly ColumnNeeds[], width: number): number[] | undefined {
  let excess = naturalWidth(needs) - width;
  if (excess <= 0) return undefined;
  const widths = needs.map((n) => n.natural + PADDING);
  const floors: Array<(i: number) => number> = [(i) => (i === 0 ? Infinity : needs[i]!.word + PADDING), (i) => (i === 0 ? Infinity : FLOOR), () => FLOOR];
  for (const floor of floors) {
    while (excess > 0) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) if (widths[i]! > floor(i) && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
      if (widest < 0) break;
      widths[widest]!--;
      excess--;
    }
  }
  return widths;
}

/** How a table gives way on a narrow terminal, beyond wrapping and cutting cells. */
export interface TableLayout {
  /** Columns that may be left out whole, the least important first (gh's way): never the one that says what a row is. */
  drop?: readonly number[];
  /** Columns of prose, which may wrap at spaces; the others are only ever shown whole while columns can be dropped. */
  wrap?: readonly number[];
  /**
   * A column of notes that, on a terminal too narrow for the whole table, is written instead under its
   * row, across the table and labelled with its heading (on rows that have any): no note is cut, and an
   * empty column takes no room.
   */
  beneath?: number;
}

/**
 * The columns to show: all, or without the droppable ones, least important first, until every other
 * column fits whole and the prose columns at their longest word.
 */
export function keptColumns(needs: readonly ColumnNeeds[], width: number, layout: TableLayout): number[] {
  let kept = needs.map((_, i) => i);
  const least = (i: number) => (layout.wrap?.includes(i) ? needs[i]!.word : needs[i]!.natural) + PADDING;
  for (const column of layout.drop ?? []) {
    if (kept.reduce((sum, i) => sum + least(i), kept.length + 1) <= width) break;
    kept = kept.filter((i) => i !== column);
  }
  return kept;
}

/**
 * Column widths that fit `width` (none when the natural widths fit and nothing spans them). `spanned` is
 * the longest text written across all the columns: cli-table3 wraps it at the columns' widths, borders
 * not counted, so the last column widens for it, up to `width`.
 */
function columnWidths(needs: readonly ColumnNeeds[], width: number, spanned: number): number[] | undefined {
  const widths = fitColumns(needs, width) ?? (spanned > 0 ? needs.map((n) => n.natural + PADDING) : undefined);
  if (widths === undefined || spanned === 0) return widths;
  const total = widths.reduce((sum, w) => sum + w, 0);
  widths[widths.length - 1]! += Math.max(0, Math.min(spanned + PADDING - total, width - (total + widths.length + 1)));
  return widths;
}

/**
 * A boxed table for people at a terminal, as wide as the terminal allows: the least important columns
 * are left out first when the layout allows it (a dim line says which), a column of notes goes under its
 * rows, then cells of squeezed columns wrap at spaces, and a word longer than its column ends in "…".
 * cli-table3's own header colour is switched off so that colour follows our palette (and with it
 * NO_COLOR), never the library's defaults.
 */
export function renderTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  paint: Palette,
  width: number | undefined = terminalColumns(),
  layout: TableLayout = {},
): string {
  rows = rows.map((row) => row.map(inertCell));
  const columns = Math.max(head.length, ...rows.map((row) => row.length)); // a table of pairs has no head
  const allNeeds = Array.from({ length: columns }, (_, i) => columnNeeds([head[i] ?? "", ...rows.map((row) => row[i] ?? "")]));
  const shown = width === undefined ? allNeeds.map((_, i) => i) : keptColumns(allNeeds, width, layout);
  const cramped = width !== undefined && naturalWidth(shown.map((i) => allNeeds[i]!)) > width;
  const under = cramped && layout.beneath !== undefined && shown.includes(layout.beneath) ? layout.beneath : undefined;
  const kept = shown.filter((i) => i !== under);
  // Each row's notes, labelled with the column's heading, where they go under the row.
  const rowNotes = rows.map((row) => (under !== undefined && row[under] ? `${paint.dim(`${head[under]}:`)} ${row[under]}` : ""));
  const colWidths = width === undefined ? undefined : columnWidths(kept.map((i) => allNeeds[i]!), width, longest(rowNotes));
  const table = new Table({
    head: head.length === 0 ? [] : kept.map((i) => paint.bold(head[i] ?? "")),
    style: { head: [], border: [] },
    wordWrap: true,
    ...(colWidths ? { colWidths } : {}),
  });
  rows.forEach((row, r) => {
    table.push(kept.map((i) => row[i] ?? ""));
    if (rowNotes[r]) table.push([{ colSpan: kept.length, content: rowNotes[r] }]);
  });
  const left = head.filter((_, i) => !shown.includes(i));
  // Columns are only left out for a known width, which the line that says so fits too.
  const leftOut = left.length === 0 ? [] : wrapAfter(`(${left.join(", ")} left out to fit the terminal; --json shows every field)`, width!, 0).split("\n");
  return table.toString() + "\n" + leftOut.map((line) => paint.dim(line) + "\n").join("");
}

/**
 * Two columns, label and value, without borders: for summaries and key/value reports. Given the
 * terminal's `width`, a long value wraps at spaces, its next lines under its first.
 */
export function renderPairs(pairs: readonly (readonly [string, string])[], paint: Palette, width?: number): string {
  const labels = Math.max(0, ...pairs.map(([label]) => label.length));
  const shown = (value: string) => (width === undefined ? inertCell(value) : wrapAfter(inertCell(value), width, labels + 2));
  return pairs.map(([label, value]) => `${paint.dim(label.padEnd(labels))}  ${shown(value)}\n`).join("");
}
