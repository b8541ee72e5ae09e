/**
 * The readiness probe's write (both dialects; `p` is the placeholder): one row, updated in place, so a
 * probe proves the store takes a write now (lock free, disk not full, connection up) and leaves nothing.
 */
export const heartbeatSql = (p: string) =>
  `INSERT INTO heartbeat (id, checked_at) VALUES (1, ${p}) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`;
