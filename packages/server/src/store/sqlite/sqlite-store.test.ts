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
import { SqliteDriver } from "./sqlite-driver.js";
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

  it("moves the usage counters of a file from before migration 10 into key order, every row kept", async () => {
    const path = join(dir, "v9.db");
    const old = new SqliteDriver(path);
    await old.migrate(MIGRATIONS.slice(0, 9));
    await old.close();
    const db = new Database(path);
    db.prepare("INSERT INTO accounts (id, email, password_hash, created_at) VALUES ('acc_1', 'a@example.test', 'x', 0)").run();
    const insert = db.prepare("INSERT INTO usage_counters (account_id, bucket_start, key_id, requests, lookups) VALUES ('acc_1', ?, ?, ?, ?)");
    for (const [hour, key, requests, lookups] of [[0, "key_b", 1, 2], [1, "key_a", 3, 4], [2, "key_b", 5, 6]] as const) insert.run(hour * 3_600_000, key, requests, lookups);
    db.close();

    const store = new SqliteStore(path);
    await store.migrate();
    const sums = await store.usageSums("acc_1", [{ from: 0, to: 3_600_000 }, { from: 3_600_000, to: 3 * 3_600_000 }]);
    expect(sums.sort((a, b) => a.bucket - b.bucket || a.key_id.localeCompare(b.key_id))).toEqual([
      { key_id: "key_b", bucket: 0, requests: 1, lookups: 2 },
      { key_id: "key_a", bucket: 1, requests: 3, lookups: 4 },
      { key_id: "key_b", bucket: 1, requests: 5, lookups: 6 },
    ]);
    await store.close();
    const migrated = new Database(path, { readonly: true });
    expect(migrated.prepare("SELECT sql FROM sqlite_master WHERE name = 'usage_counters'").pluck().get()).toMatch(/PRIMARY KEY \(account_id, key_id, bucket_start\)\s*\) WITHOUT ROWID/);
    migrated.close();
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
