import Table from "cli-table3";
import type { Palette } from "./colour.js";

/**
 * A boxed table for people at a terminal. cli-table3's own header colour is switched off so that
 * colour follows our palette (and with it NO_COLOR), never the library's defaults.
 */
export function renderTable(head: readonly string[], rows: readonly (readonly string[])[], paint: Palette): string {
  const table = new Table({
    head: head.map((h) => paint.bold(h)),
    style: { head: [], border: [] },
    wordWrap: true,
  });
  for (const row of rows) table.push([...row]);
  return table.toString() + "\n";
}

/** Two columns, label and value, without borders: for summaries and key/value reports. */
export function renderPairs(pairs: readonly (readonly [string, string])[], paint: Palette): string {
  const width = Math.max(0, ...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${paint.dim(label.padEnd(width))}  ${value}\n`).join("");
}
