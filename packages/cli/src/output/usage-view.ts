import type { Granularity, Usage } from "@iccid/core";
import { counted, formatCount } from "@iccid/core/grammar";
import { barChart, bar } from "./bar-chart.js";
import type { Palette } from "./colour.js";
import { renderPairs, renderTable } from "./table.js";

const day = (ts: string) => ts.slice(0, 10);
const minute = (ts: string) => `${ts.slice(0, 10)} ${ts.slice(11, 16)} UTC`;

function bucketLabel(start: string, granularity: Granularity): string {
  if (granularity === "month") return start.slice(0, 7);
  if (granularity === "hour") return `${start.slice(0, 10)} ${start.slice(11, 13)}h`;
  return day(start);
}

const PER: Record<Granularity, string> = { hour: "hour", day: "day", month: "month" };

/** The human usage report: period, subscription, quota, limits, totals, a bar chart, and keys; long lines wrap at `width`. */
export function renderUsage(usage: Usage, granularity: Granularity, paint: Palette, width?: number): string {
  const { quota } = usage;
  const share = quota.limit > 0 ? quota.used / quota.limit : 0;
  const quotaBar = `${paint.dim("[")}${bar(quota.used, quota.limit, 30).padEnd(30)}${paint.dim("]")} ${(share * 100).toFixed(1)}%`;
  const sub = usage.subscription;
  const status = sub.status === "active" ? paint.green(sub.status) : paint.red(sub.status);
  let text = renderPairs(
    [
      ["Period", `${day(usage.period.from)} → ${day(usage.period.to)} (as of ${minute(usage.as_of)})`],
      ["Plan", `${sub.plan}, ${status}, period ends ${day(sub.current_period_end)}`],
      ["Quota", `${formatCount(quota.used)} of ${formatCount(quota.limit)} lookups used · ${formatCount(quota.remaining)} remaining`],
      ["", quotaBar],
      // A row of its own: at the end of the quota's line, a narrow terminal broke the time from its day.
      ["Resets", minute(quota.resets_at)],
      ["Rate limit", `${counted(usage.rate_limit.limit, "request")} per ${usage.rate_limit.window_seconds} s`],
      ["Totals", `${counted(usage.totals.requests, "request")} · ${counted(usage.totals.lookups, "lookup")}`],
    ],
    paint,
    width,
  );
  text += `\n${paint.bold(`Lookups per ${PER[granularity]}`)}\n`;
  // The series covers the whole period; days still to come would only add empty bars.
  const rows = usage.series.filter((b) => b.start <= usage.as_of).map((b) => ({ label: bucketLabel(b.start, granularity), value: b.lookups }));
  text += rows.length > 0 ? barChart(rows) : paint.dim("(no usage in this period)\n");
  if (usage.by_key) {
    text += `\n${paint.bold("By key")}\n`;
    const keyRows = usage.by_key.map((k) => [k.key_id, k.name ?? "", formatCount(k.requests), formatCount(k.lookups)]);
    text += keyRows.length > 0 ? renderTable(["Key", "Name", "Requests", "Lookups"], keyRows, paint, width) : paint.dim("(none)\n");
  }
  return text;
}
