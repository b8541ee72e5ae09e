import { parseDuration } from "@iccid/core";
import { UsageError } from "./input.js";

/**
 * `iccid-server audit --since`: an RFC 3339 time or a date (UTC midnight), or a duration back from now
 * (`7d`, `24h`). Answers the instant as a function of now; anything else is a usage error.
 */
export function auditSince(value: string): (now: number) => number {
  const back = parseDuration(value);
  if (back !== undefined) return (now) => now - back;
  const at = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at)) throw new UsageError(`--since must be an RFC 3339 time, a date or a duration such as 7d (got "${value}")`);
  return () => at;
}
