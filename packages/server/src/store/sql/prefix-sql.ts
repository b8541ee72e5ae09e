import type { CustomPrefix } from "../store.js";
import type { Statement } from "./sql-driver.js";

// The SQL of the custom prefixes and of the unknown-prefix counts, as both dialects accept it.

const UPSERT_PREFIX = `INSERT INTO custom_prefixes (prefix, name, country_iso2) VALUES (?, ?, ?)
  ON CONFLICT (prefix) DO UPDATE SET name = excluded.name, country_iso2 = excluded.country_iso2`;

/** Adds a custom prefix, or renames one already there. */
export function upsertPrefix(p: CustomPrefix): Statement {
  return { sql: UPSERT_PREFIX, params: [p.prefix, p.name, p.country_iso2] };
}

/** Adds a day's count of one prefix; CASE rather than MIN/MAX of two values, which the dialects spell differently. */
export const ADD_UNKNOWN_PREFIX = `INSERT INTO unknown_prefixes AS u (day, prefix, count, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (day, prefix) DO UPDATE SET count = u.count + excluded.count,
    first_seen = CASE WHEN excluded.first_seen < u.first_seen THEN excluded.first_seen ELSE u.first_seen END,
    last_seen = CASE WHEN excluded.last_seen > u.last_seen THEN excluded.last_seen ELSE u.last_seen END`;

/** Each prefix summed over the days from one on, most seen first (the sum cast back to a 64-bit integer). */
export const UNKNOWN_PREFIXES_SINCE = `SELECT prefix, CAST(SUM(count) AS BIGINT) AS count, MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen
  FROM unknown_prefixes WHERE day >= ? GROUP BY prefix ORDER BY count DESC, prefix`;
