import { InvalidArgumentError } from "commander";

// What the server's usage query takes as `from` and `to` (core's usage schema: an ISO date, or an RFC 3339
// timestamp with seconds and an offset), checked here so that a value the server would refuse is a usage
// error naming the flag (exit 2), not a refusal from the server (exit 1).

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** A day of the calendar: 2026-02-30 is not one, though Date.parse rolls it over into March. */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function isUsageDate(value: string): boolean {
  const date = DATE.exec(value);
  if (date) return isCalendarDay(Number(date[1]), Number(date[2]), Number(date[3]));
  const t = TIMESTAMP.exec(value);
  if (!t) return false;
  const [hour, minute, second] = [Number(t[4]), Number(t[5]), Number(t[6])];
  const offsetOk = t[8] === "Z" || (Number(t[9]) < 24 && Number(t[10]) < 60);
  return isCalendarDay(Number(t[1]), Number(t[2]), Number(t[3])) && hour < 24 && minute < 60 && second < 60 && offsetOk;
}

/** Commander's parser for --from and --to: the value as given, or a usage error that commander names the flag in. */
export function dateArgument(value: string): string {
  if (!isUsageDate(value)) throw new InvalidArgumentError("must be a date (2026-11-01) or an RFC 3339 timestamp with seconds (2026-11-01T10:30:00Z)");
  return value;
}
