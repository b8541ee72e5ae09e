import { formatCount } from "@iccid/core/grammar";

// Bars drawn with block characters; the eighth blocks give a bar 8 steps per cell, so small
// differences still show in a 40-column chart.
const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
const FULL = "█";

/** A bar of `value / max` of `width` cells (at least a sliver for any non-zero value). */
export function bar(value: number, max: number, width: number): string {
  if (max <= 0 || value <= 0) return "";
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * width * 8));
  return FULL.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

export interface BarRow {
  label: string;
  value: number;
}

/** One line per row: label, bar padded to `width`, value right-aligned. */
export function barChart(rows: readonly BarRow[], width = 40): string {
  if (rows.length === 0) return "";
  const max = Math.max(...rows.map((r) => r.value));
  const labelWidth = Math.max(...rows.map((r) => r.label.length));
  const values = rows.map((r) => formatCount(r.value));
  const valueWidth = Math.max(...values.map((v) => v.length));
  return rows
    .map((row, i) => `${row.label.padEnd(labelWidth)} │${bar(row.value, max, width).padEnd(width)} ${values[i]!.padStart(valueWidth)}\n`)
    .join("");
}
