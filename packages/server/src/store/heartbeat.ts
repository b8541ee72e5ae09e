/**
 * The readiness probe's write: one row, updated in place, so a probe proves the store takes a write now
 * (lock free, disk not full, connection up) and leaves nothing.
 */
export const HEARTBEAT_SQL = `INSERT INTO heartbeat (id, checked_at) VALUES (1, ?)
  ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`;
