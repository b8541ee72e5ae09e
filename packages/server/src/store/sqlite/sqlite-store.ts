import { SqlStore } from "../sql/sql-store.js";
import { SqliteDriver } from "./sqlite-driver.js";

/** The embedded store, the default: one SQLite file (WAL) at `path`, created owner-only. */
export class SqliteStore extends SqlStore {
  constructor(readonly path: string) {
    super(new SqliteDriver(path));
  }
}
