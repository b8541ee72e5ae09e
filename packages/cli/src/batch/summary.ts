import { formatCount } from "@iccid/core/grammar";
import { palette } from "../output/colour.js";
import { renderPairs, renderTable } from "../output/table.js";
import type { Terminal } from "../terminal.js";
import { rowsPerSecond } from "./pace.js";
import type { BatchTally } from "./pipeline.js";

/** The end-of-run report on stderr: a boxed table on a TTY, aligned plain lines otherwise. */
export function renderSummary(term: Terminal, tally: BatchTally, elapsedMs: number, headline: string): string {
  const seconds = elapsedMs / 1000;
  const rate = rowsPerSecond(tally.rows, elapsedMs);
  const pairs: [string, string][] = [
    ["rows", formatCount(tally.rows)],
    ["valid", formatCount(tally.valid)],
    ["invalid check digit", formatCount(tally.invalid)],
    ["failed (malformed)", formatCount(tally.failed)],
  ];
  if (tally.skipped > 0) pairs.push(["skipped (resumed)", formatCount(tally.skipped)]);
  if (tally.restored > 0) pairs.push(["answered before (resumed)", formatCount(tally.restored)]);
  pairs.push(["time", `${seconds.toFixed(1)} s (${formatCount(rate)} rows/s)`]);

  const paint = palette(term.stderrColor);
  if (term.stderrIsTTY) {
    return `${paint.bold(headline)}\n${renderTable([], pairs, paint)}`;
  }
  return `${headline}\n${renderPairs(pairs, paint)}`;
}
