import type { UsageBucket } from "@iccid/core";
import { h, s } from "./dom.js";
import { formatBucketDay, formatBucketDayLong, formatCount, plural } from "./format.js";

// Drawn at the container's real pixel width (not a scaled viewBox), so labels stay legible on a phone.
const HEIGHT = 180;
const MARGIN = { top: 12, right: 8, bottom: 26 };
// The y labels are 12px tabular figures: a digit is about 0.6 em wide, a thousands separator about 0.3 em.
const DIGIT_PX = 7.2;
const SEPARATOR_PX = 3.6;
const LABEL_GAP = 6;
// Room one day label ("Nov 27") needs, so labels never touch however narrow the chart is.
const LABEL_SPACE = 64;
const TARGET_TICKS = 4;

/**
 * The y axis: a step of 1, 2 or 5 times a power of ten (at least 1: lookups are whole numbers) that gives
 * about four gridlines, and a top that is a whole number of steps at or above the highest bar.
 */
export function yAxis(max: number): { step: number; top: number } {
  if (max <= 0) return { step: 1, top: TARGET_TICKS };
  const raw = max / TARGET_TICKS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((v) => v >= raw) ?? 10 * power);
  return { step, top: step * Math.ceil(max / step) };
}

function describe(series: UsageBucket[]): string {
  const first = series[0];
  const last = series[series.length - 1];
  if (!first || !last) return "No days in this period.";
  const total = series.reduce((sum, b) => sum + b.lookups, 0);
  if (total === 0) return `No lookups from ${formatBucketDayLong(first.start)} to ${formatBucketDayLong(last.start)}.`;
  const busiest = series.reduce<UsageBucket | undefined>((best, b) => (b.lookups > (best?.lookups ?? 0) ? b : best), undefined);
  return (
    `Daily lookups from ${formatBucketDayLong(first.start)} to ${formatBucketDayLong(last.start)}: ${plural(total, "lookup", "lookups")} in all` +
    (busiest ? `, most on ${formatBucketDayLong(busiest.start)} (${formatCount(busiest.lookups)}).` : ".")
  );
}

/** Room for the widest y label ("150,000") and the gap before the axis, so no label is cut at the left. */
export function leftMargin(labels: readonly string[]): number {
  const widest = Math.max(0, ...labels.map((label) => [...label].reduce((w, c) => w + (/\d/.test(c) ? DIGIT_PX : SEPARATOR_PX), 0)));
  return Math.ceil(widest) + LABEL_GAP + 4;
}

/**
 * Daily lookups as bars, with a y axis and a few day labels; every bar has a tooltip title. A period
 * without lookups has no y axis to read (its numbers would mean nothing): the baseline, the days and
 * words that say so.
 */
export function dailyChart(series: UsageBucket[], width: number): SVGSVGElement {
  const max = Math.max(0, ...series.map((b) => b.lookups));
  const { step, top } = yAxis(max);
  const ticks: number[] = [];
  if (max > 0) for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  const left = max > 0 ? leftMargin(ticks.map(formatCount)) : MARGIN.right;
  const right = width - MARGIN.right;
  const plotW = Math.max(1, right - left);
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const baseline = MARGIN.top + plotH;
  const y = (v: number) => baseline - (v / top) * plotH;
  const band = plotW / Math.max(1, series.length);
  const barW = Math.max(1, band * 0.7);

  const svg = s("svg", { class: "chart", width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, role: "img", "aria-label": describe(series) });
  if (max === 0) svg.append(s("line", { class: "axis", x1: left, x2: right, y1: baseline, y2: baseline }));

  for (const tick of ticks) {
    svg.append(
      s("line", { class: tick === 0 ? "axis" : "grid", x1: left, x2: right, y1: y(tick), y2: y(tick) }),
      s("text", { class: "tick y-tick", x: left - LABEL_GAP, y: y(tick), "text-anchor": "end", "dominant-baseline": "middle" }, formatCount(tick)),
    );
  }

  const every = Math.max(1, Math.ceil(series.length / Math.max(2, Math.floor(plotW / LABEL_SPACE))));
  series.forEach((bucket, i) => {
    const x = left + i * band + (band - barW) / 2;
    if (bucket.lookups > 0) {
      const barTop = y(bucket.lookups);
      svg.append(
        s(
          "rect",
          { class: "bar", x: x.toFixed(1), y: barTop.toFixed(1), width: barW.toFixed(1), height: Math.max(1, baseline - barTop).toFixed(1) },
          s("title", {}, `${formatBucketDay(bucket.start)}: ${plural(bucket.lookups, "lookup", "lookups")}, ${plural(bucket.requests, "request", "requests")}`),
        ),
      );
    }
    if (i % every === 0) {
      // Centred under its bar, except where that would run past the chart's left or right edge.
      const centre = x + barW / 2;
      const [anchor, at] = centre - LABEL_SPACE / 2 < 0 ? ["start", x] : centre + LABEL_SPACE / 2 > width ? ["end", x + barW] : ["middle", centre];
      svg.append(s("text", { class: "tick x-tick", x: at.toFixed(1), y: HEIGHT - 8, "text-anchor": anchor }, formatBucketDay(bucket.start)));
    }
  });

  if (max === 0) {
    svg.append(s("text", { class: "empty", x: left + plotW / 2, y: MARGIN.top + plotH / 2, "text-anchor": "middle" }, "No lookups in this period yet"));
  }
  return svg;
}

/** The same figures as a table, for screen readers and for anyone who wants the numbers. */
export function dailyTable(series: UsageBucket[]): HTMLElement {
  const used = series.filter((b) => b.requests > 0 || b.lookups > 0);
  const header = h("tr", {}, h("th", { scope: "col" }, "Day"), h("th", { scope: "col", class: "num" }, "Requests"), h("th", { scope: "col", class: "num" }, "Lookups"));
  const row = (b: UsageBucket) =>
    h("tr", {}, h("th", { scope: "row" }, formatBucketDayLong(b.start)), h("td", { class: "num" }, formatCount(b.requests)), h("td", { class: "num" }, formatCount(b.lookups)));
  return h(
    "details",
    { class: "chart-table" },
    h("summary", {}, "Days with usage, as a table"),
    used.length === 0 ? h("p", { class: "muted" }, "No lookups in this period yet.") : h("table", {}, h("thead", {}, header), h("tbody", {}, ...used.map(row))),
  );
}
