/** The units a duration may be written in: seconds, minutes, hours, days, weeks. */
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/**
 * A duration as people write it on a command line, `90d`, `24h`, `30m`, `45s`, `2w` (one whole number and
 * one unit), in milliseconds; undefined for anything else.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})([smhdw])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
