// How numbers and times read on the page: the user's locale, and the user's time zone for instants.

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
// Usage buckets start at midnight UTC: label them in UTC, or a day would show as the day before west of
// Greenwich.
const bucketDay = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const bucketDayLong = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

export const formatCount = (n: number): string => integer.format(n);
/** A share as a percentage; a little use never reads as "0%", which looks like nothing was counted. */
export function formatShare(part: number, whole: number): string {
  const share = whole > 0 ? part / whole : 0;
  return part > 0 && share < 0.001 ? `<\u00a0${percent.format(0.001)}` : percent.format(share);
}
export const formatInstant = (iso: string): string => dateTime.format(new Date(iso));

const sameYearDateTime = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
/** For table cells: the year only when it is not this year, so a row of dates fits on one line. */
export function formatInstantShort(iso: string): string {
  const at = new Date(iso);
  return at.getFullYear() === new Date().getFullYear() ? sameYearDateTime.format(at) : dateTime.format(at);
}
export const formatDate = (iso: string): string => date.format(new Date(iso));
export const formatBucketDay = (iso: string): string => bucketDay.format(new Date(iso));
export const formatBucketDayLong = (iso: string): string => bucketDayLong.format(new Date(iso));

/** "1 lookup", "2 lookups". */
export function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "always" });
const clock = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });

/**
 * When a retry is worth it: "in 40 seconds", "in 15 minutes (at 5:57 AM)", "on Dec 26, 2026, 9:36 AM"
 * past a day (a quota's next period) — rounded up, never "in 0".
 */
export function formatRetryAfter(seconds: number, now: number = Date.now()): string {
  const wait = Math.max(1, Math.ceil(seconds));
  if (wait < 60) return relative.format(wait, "second");
  const at = clock.format(new Date(now + wait * 1000));
  if (wait < 3600) return `${relative.format(Math.ceil(wait / 60), "minute")} (at ${at})`;
  if (wait < 86_400) return `${relative.format(Math.ceil(wait / 3600), "hour")} (at ${at})`;
  return `on ${dateTime.format(new Date(now + wait * 1000))}`;
}
