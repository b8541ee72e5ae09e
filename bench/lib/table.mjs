import { median } from "./load.mjs";

/**
 * A figure measured for every build in the same rounds, `cost(figures, build)` being one build's cost in one
 * round's figures: `base` and `head` are medians over the rounds; `ratio` is base ÷ head (higher is better,
 * 1.0 costs the same), the median of the rounds' own ratios, so that two figures measured a moment apart
 * are compared. A user path is judged; anything else (`judged: false`) is reported.
 */
export function buildRow(all, builds, figure, unit, cost, { judged = true } = {}) {
  const of = (build) => (builds.some((b) => b.name === build) ? median(all.map((r) => cost(r, build))) : null);
  const ratio = of("base") === null ? null : median(all.map((r) => cost(r, "base") / cost(r, "head")));
  return { figure, unit, base: of("base"), head: of("head"), ratio, judged, pass: null };
}

/**
 * How many times one cost is another within each build (the median of the rounds' own quotients
 * `quotient(figures, build)`), such as a path over its floor: reported, never judged, no ratio.
 */
export function timesRow(all, builds, figure, quotient) {
  const row = buildRow(all, builds, figure, "×", quotient, { judged: false });
  return { ...row, ratio: null };
}

/** Marks each judged row that has a ratio: it passes when its ratio is at least 1 − noise. */
export function judge(rows, noise) {
  for (const row of rows) if (row.judged && row.ratio !== null) row.pass = row.ratio >= 1 - noise;
  return rows;
}

const shown = (n) => (n === null ? "—" : n >= 100 ? String(Math.round(n)) : n.toFixed(n >= 10 ? 1 : 2));

export function printTable(rows) {
  const header = ["figure", "unit", "base", "head", "base÷head", "result"];
  const cells = rows.map((r) => [
    r.figure,
    r.unit,
    shown(r.base),
    shown(r.head),
    r.ratio === null ? "—" : r.ratio.toFixed(3),
    r.pass === null ? (r.judged ? "user path" : "reported") : r.pass ? "pass" : "FAIL",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((v, i) => (i < 2 || i === 5 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ").trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
}
