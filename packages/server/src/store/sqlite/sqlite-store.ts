import { SqlStore } from "../sql/sql-store.js";
import { SqliteDriver, type SqliteOptions } from "./sqlite-driver.js";

/** The embedded store, the default: one SQLite file (WAL) at `path`, created owner-only. */
export class SqliteStore extends SqlStore {
  readonly #driver: SqliteDriver;

  constructor(
    readonly path: string,
    options: SqliteOptions = {},
  ) {
    const driver = new SqliteDriver(path, options);
    super(driver);
    this.#driver = driver;
  }

  /** Throws DatabaseCorrupt when the file fails SQLite's quick_check (start refuses to serve from it). */
  async checkIntegrity(): Promise<void> {
    this.#driver.checkIntegrity();
  }
}
