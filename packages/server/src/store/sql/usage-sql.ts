import type { UsageSpan } from "../store.js";
import type { Dialect, Statement } from "./sql-driver.js";

// The usage report's sums, added up by the database: one row per key and bucket that holds usage, never
// the hourly rows themselves. Each dialect walks the table the way its storage is laid out.

/**
 * SQLite keeps usage_counters in (account, key, hour) order (migration 10): the keys the account ever
 * used are found by skipping from one to the next (a seek each), those with usage in the window kept,
 * and each key's bucket is one range of that order, summed where it lies; no row is sorted. The sums go
 * out as a JSON pair so that one seek gives both, and MATERIALIZED keeps SQLite from running it thrice.
 */
const SQLITE = `WITH RECURSIVE keys(id) AS (
    SELECT (SELECT min(key_id) FROM usage_counters WHERE account_id = ?)
    UNION ALL
    SELECT (SELECT min(key_id) FROM usage_counters WHERE account_id = ? AND key_id > keys.id) FROM keys WHERE keys.id IS NOT NULL
  ), active(id) AS (
    SELECT id FROM keys
    WHERE EXISTS (SELECT 1 FROM usage_counters WHERE account_id = ? AND key_id = keys.id AND bucket_start >= ? AND bucket_start < ?)
  ), buckets(i, lo, hi) AS (
    SELECT key, value ->> 0, value ->> 1 FROM json_each(?)
  ), sums(key_id, bucket, pair) AS MATERIALIZED (
    SELECT active.id, buckets.i,
      (SELECT CASE WHEN count(*) > 0 THEN json_array(sum(requests), sum(lookups)) END FROM usage_counters
       WHERE account_id = ? AND key_id = active.id AND bucket_start >= buckets.lo AND bucket_start < buckets.hi)
    FROM active CROSS JOIN buckets
  )
  SELECT key_id, bucket, pair ->> 0 AS requests, pair ->> 1 AS lookups FROM sums WHERE pair IS NOT NULL`;

/**
 * PostgreSQL reads the window's rows by its primary key (account, hour, key) and hashes them by key and
 * bucket: width_bucket over the buckets' starts gives each hour its bucket's number (1 for the first).
 * Sums cast back to BIGINT, which the driver reads as numbers.
 */
const POSTGRES = `SELECT key_id, width_bucket(bucket_start, ?::bigint[]) - 1 AS bucket,
    CAST(sum(requests) AS BIGINT) AS requests, CAST(sum(lookups) AS BIGINT) AS lookups
  FROM usage_counters WHERE account_id = ? AND bucket_start >= ? AND bucket_start < ?
  GROUP BY key_id, 2`;

/** The read of an account's usage summed by key over each span of `spans` (adjacent, in order, at least one). */
export function usageSumsQuery(dialect: Dialect, accountId: string, spans: readonly UsageSpan[]): Statement {
  const from = spans[0]!.from;
  const to = spans[spans.length - 1]!.to;
  if (dialect === "postgres") {
    return { sql: POSTGRES, params: [spans.map((s) => s.from), accountId, from, to] };
  }
  const bounds = JSON.stringify(spans.map((s) => [s.from, s.to]));
  return { sql: SQLITE, params: [accountId, accountId, accountId, from, to, bounds, accountId] };
}
