import { PgStore } from "./postgres/pg-store.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

/** `postgres://…` or `postgresql://…` opens PostgreSQL; anything else is a SQLite file path. */
export function openStore(db: string): Store {
  return /^postgres(ql)?:\/\//.test(db) ? new PgStore(db) : new SqliteStore(db);
}
