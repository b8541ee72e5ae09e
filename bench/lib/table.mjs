/**
 * A row: { figure, value, baseline, unit, ratio, bar, pass }, `bar` reading like "≥ 0.8" or "≤ 1.2" (pass
 * is null for figures reported without a bar). `ratio` is value ÷ baseline unless given.
 */
export function row(figure, value, baseline, unit, bar, ratio = value / baseline) {
  const [op, limit] = bar ? [bar.slice(0, 1), Number(bar.slice(1).trim())] : [];
  const pass = bar ? (op === "≥" ? ratio >= limit : ratio <= limit) : null;
  return { figure, value: round(value), baseline: round(baseline), unit, ratio: Number(ratio.toFixed(3)), bar: bar ?? "—", pass };
}

/**
 * A CPU-cost row: the ratio is baseline cost ÷ cost, so higher is better and 1.0 costs what the baseline
 * does (given when it is the median of per-round ratios rather than the ratio of the medians).
 */
export function costRow(figure, cost, baselineCost, unit, bar, ratio = baselineCost / cost) {
  return row(figure, cost, baselineCost, unit, bar, ratio);
}

function round(n) {
  return n >= 100 ? Math.round(n) : Number(n.toFixed(2));
}

export function printTable(rows) {
  const header = ["figure", "value", "baseline", "unit", "ratio", "bar", "result"];
  const cells = rows.map((r) => [r.figure, String(r.value), String(r.baseline), r.unit, r.ratio.toFixed(3), r.bar, r.pass === null ? "info" : r.pass ? "pass" : "FAIL"]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((v, i) => (i === 0 || i === 3 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
}
