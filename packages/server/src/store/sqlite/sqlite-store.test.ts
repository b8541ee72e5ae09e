import { closeSync, mkdtempSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { damageTablePage } from "../../../test-support/damage.js";
import { Accounts } from "../../services/accounts.js";
import { systemClock } from "../../time.js";
import { DatabaseCorrupt, DatabaseFileGone, SchemaTooNew, StoreUnavailable } from "../errors.js";
import { MIGRATIONS } from "../sql/schema.js";
import { SqliteStore } from "./sqlite-store.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-sqlite-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore", () => {
  it("creates the database, its WAL and shared-memory files readable by their owner only", async () => {
    const path = join(dir, "fresh", "iccid.db");
    const store = new SqliteStore(path);
    await store.migrate();
    await store.checkWritable(1);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect((statSync(file).mode & 0o777).toString(8), file).toBe("600");
    expect((statSync(join(dir, "fresh")).mode & 0o777).toString(8)).toBe("700");
    await store.close();
  });

  it("refuses a database written by a newer server instead of starting on it", async () => {
    const path = join(dir, "newer.db");
    const newer = new Database(path);
    newer.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    newer.close();
    const store = new SqliteStore(path);
    await expect(store.migrate()).rejects.toThrow(SchemaTooNew);
    await expect(store.migrate()).rejects.toThrow(`version ${MIGRATIONS.length + 1}, newer than this server's ${MIGRATIONS.length}`);
    await store.close();
  });

  it("with a damaged page: fails the integrity check, and a read of the page is unavailable (503), not an error (500)", async () => {
    const path = join(dir, "damaged.db");
    const store = new SqliteStore(path);
    await store.migrate();
    await store.upsertPlan({ name: "standard", rate_limit: 10, window_seconds: 60, monthly_lookups: 10 });
    await new Accounts(store, systemClock).create({ email: "ops@example.test", password: "a-long-password", plan: "standard" });
    await store.checkIntegrity();
    await store.close();

    damageTablePage(path, "accounts");
    const damaged = new SqliteStore(path);
    await expect(damaged.checkIntegrity()).rejects.toThrow(DatabaseCorrupt);
    await expect(damaged.checkIntegrity()).rejects.toThrow(`the database file ${path} fails SQLite's integrity check`);
    await expect(damaged.findAccountByEmail("ops@example.test")).rejects.toThrow(StoreUnavailable);
    await damaged.close();
  });

  it("refuses a file whose header is damaged, naming it", async () => {
    const path = join(dir, "header.db");
    const store = new SqliteStore(path);
    await store.migrate();
    await store.close();
    const fd = openSync(path, "r+");
    writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
    closeSync(fd);
    expect(() => new SqliteStore(path)).toThrow(DatabaseCorrupt);
    expect(() => new SqliteStore(path)).toThrow(`the database file ${path} fails SQLite's integrity check (file is not a database)`);
  });

  it("notices, at the readiness probe, a database file deleted or replaced while it is open", async () => {
    for (const [name, remove] of [
      ["deleted.db", (path: string) => rmSync(path)],
      ["replaced.db", (path: string) => (writeFileSync(`${path}.new`, ""), renameSync(`${path}.new`, path))],
    ] as const) {
      const path = join(dir, name);
      const store = new SqliteStore(path);
      await store.migrate();
      await store.checkWritable(1);
      remove(path);
      await expect(store.checkWritable(2)).rejects.toThrow(DatabaseFileGone);
      await expect(store.checkWritable(2)).rejects.toThrow(StoreUnavailable);
      await store.close();
    }
  });
});
