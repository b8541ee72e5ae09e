import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SchemaTooNew } from "../errors.js";
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
});
