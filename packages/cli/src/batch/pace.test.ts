import { expect, it } from "vitest";
import type { Terminal } from "../terminal.js";
import { progressText } from "./progress.js";
import { renderSummary } from "./summary.js";

const piped = { stderrColor: false, stderrIsTTY: false } as unknown as Terminal;
const tally = (rows: number) => ({ rows, valid: rows, invalid: 0, failed: 0, skipped: 0, restored: 0, unwritten: 0 });

it("the progress line and the summary say the same rate for the same rows and time", () => {
  for (const [rows, ms] of [[12_345, 4_321], [1, 3_600_000], [7, 0], [999, 1_000], [1_000_000, 61_234]] as const) {
    const progress = /· ([\d,]+) rows\/s/.exec(progressText(rows, ms, undefined))![1];
    const summary = /\(([\d,]+) rows\/s\)/.exec(renderSummary(piped, tally(rows), ms, "Done"))![1];
    expect(summary, `${rows} rows in ${ms} ms`).toBe(progress);
  }
});
