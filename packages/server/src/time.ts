/** The server's notion of now, injectable so tests can drive periods and expiries. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** RFC 3339 UTC without fractional seconds, as the contract writes times. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function floorHour(ms: number): number {
  return ms - (((ms % HOUR) + HOUR) % HOUR);
}

export function floorDay(ms: number): number {
  return ms - (((ms % DAY) + DAY) % DAY);
}

export function floorMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** `anchor` moved by whole months, keeping its day (clamped to the month's length) and time of day. */
export function addMonths(anchor: number, months: number): number {
  const a = new Date(anchor);
  const year = a.getUTCFullYear();
  const month = a.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(a.getUTCDate(), lastDay), a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds());
}

/** The monthly subscription period, anchored at `anchor`, that contains `now`. */
export function billingPeriod(anchor: number, now: number): { start: number; end: number } {
  const a = new Date(anchor);
  const n = new Date(now);
  let months = (n.getUTCFullYear() - a.getUTCFullYear()) * 12 + (n.getUTCMonth() - a.getUTCMonth());
  if (addMonths(anchor, months) > now) months--;
  return { start: addMonths(anchor, months), end: addMonths(anchor, months + 1) };
}
