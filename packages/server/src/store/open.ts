import type { PgOptions } from "./postgres/pg-options.js";
import { PgStore } from "./postgres/pg-store.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

/** `postgres://…` or `postgresql://…` names PostgreSQL; anything else is a SQLite file path. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//.test(db);
}

/**
 * Opens PostgreSQL for a postgres URL (reached as `pg` says), else the SQLite file at `db`, whose lock
 * waits end at the same query timeout.
 */
export function openStore(db: string, pg: Omit<PgOptions, "schema"> = {}): Store {
  return isPostgresUrl(db) ? new PgStore(db, pg) : new SqliteStore(db, pg.queryTimeoutMs === undefined ? {} : { lockWaitMs: pg.queryTimeoutMs });
}
