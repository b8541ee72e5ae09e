import { closeSync, mkdirSync, openSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import Database from "better-sqlite3";

/** Another process serves the same SQLite file. */
export class DatabaseInUse extends Error {
  constructor(path: string, holder: Holder | undefined) {
    const who = holder ? `process ${holder.pid} on ${holder.host} (serving since ${holder.since})` : "another process";
    super(
      `the database file ${path} is already served by ${who}: stop that server first, or give this one its own --db. ` +
        "Several instances share PostgreSQL, not a SQLite file (see docs/deploy.md)",
    );
    this.name = "DatabaseInUse";
  }
}

interface Holder {
  pid: number;
  host: string;
  since: string;
}

/**
 * One serving process per SQLite file: each keeps its own rate limits in memory, so two would let twice
 * a plan's limit through. The lock is SQLite's own write lock on a small file beside the database
 * (`<file>.lock`), taken at start and held for the life of the process; the operating system drops it
 * when the process ends, however it ends, so a crashed server leaves no lock behind. The file records
 * which process holds it, for the refusal to name. Operator commands do not take it: they may run while
 * the server serves.
 */
export class ServerLock {
  private constructor(private readonly db: Database.Database) {}

  static take(databasePath: string): ServerLock {
    const path = `${databasePath}.lock`;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, "a", 0o600));
    const db = new Database(path);
    try {
      db.pragma("busy_timeout = 0");
      db.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, host TEXT NOT NULL, since TEXT NOT NULL)");
      // Record this process, then hold the lock: readers (a second server) still see the record.
      db.exec("BEGIN IMMEDIATE");
      db.prepare("DELETE FROM holder").run();
      db.prepare("INSERT INTO holder (pid, host, since) VALUES (?, ?, ?)").run(process.pid, hostname(), new Date().toISOString());
      db.exec("COMMIT");
      db.exec("BEGIN IMMEDIATE");
      return new ServerLock(db);
    } catch (error) {
      const holder = isBusy(error) ? recordedHolder(db) : undefined;
      db.close();
      throw isBusy(error) ? new DatabaseInUse(databasePath, holder) : error;
    }
  }

  release(): void {
    if (this.db.open) this.db.close();
  }
}

const isBusy = (error: unknown) => /^SQLITE_BUSY/.test(String((error as { code?: unknown })?.code));

function recordedHolder(db: Database.Database): Holder | undefined {
  try {
    if (db.inTransaction) db.exec("ROLLBACK");
    return db.prepare("SELECT pid, host, since FROM holder").get() as Holder | undefined;
  } catch {
    return undefined;
  }
}
