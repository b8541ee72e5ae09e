import { SqlStore } from "../sql/sql-store.js";
import { PgDriver } from "./pg-driver.js";
import type { PgOptions } from "./pg-options.js";

/** The shared store for several instances: PostgreSQL through a connection pool. */
export class PgStore extends SqlStore {
  constructor(connectionString: string, options: PgOptions = {}) {
    super(new PgDriver(connectionString, options));
  }
}
