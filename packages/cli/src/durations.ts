import { parseDuration } from "@iccid/core/grammar";
import { InvalidArgumentError } from "commander";

/** `--expires`: a duration from now (`90d`, `24h`) or an RFC 3339 time; answered as an RFC 3339 time. */
export function expiresOption(value: string): string {
  const after = parseDuration(value);
  if (after !== undefined) return new Date(Date.now() + after).toISOString().replace(/\.\d{3}Z$/, "Z");
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value) && Number.isFinite(Date.parse(value))) return value;
  throw new InvalidArgumentError("not a duration (90d, 24h, 30m) or an RFC 3339 time (2027-01-31T00:00:00Z)");
}

/** `--grace`: a duration (`24h`, `30m`, `0s`), answered in whole seconds; the server takes up to 7 days. */
export function graceOption(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError("not a duration: write it like 24h, 30m or 0s (7d at most)");
  return ms / 1000;
}
