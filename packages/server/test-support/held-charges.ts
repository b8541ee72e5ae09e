import Database from "better-sqlite3";
import pg from "pg";

/** Lets the held charges go on. */
export type ReleaseCharges = () => Promise<void>;

// A fault injected for real: another connection holds what a charge must write, so every charge waits (the
// server retries a busy SQLite file, and PostgreSQL queues the commit behind the lock) until released.

/**
 * Holds the SQLite file's write lock from a connection of its own (BEGIN IMMEDIATE): not only charges but
 * every write waits, idempotency claims, keys' last-used times and sessions among them.
 */
export function holdSqliteCharges(path: string): ReleaseCharges {
  const db = new Database(path);
  db.exec("BEGIN IMMEDIATE");
  return async () => {
    db.exec("ROLLBACK");
    db.close();
  };
}

/** Locks the quota counters of `schema` against writes from a connection of its own: only what charges write waits. */
export async function holdPgCharges(url: string, schema: string): Promise<ReleaseCharges> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  await client.query(`LOCK TABLE ${schema}.quota_counters IN EXCLUSIVE MODE`);
  return async () => {
    await client.query("ROLLBACK");
    await client.end();
  };
}
