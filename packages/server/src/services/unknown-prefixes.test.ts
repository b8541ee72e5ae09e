import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { UnknownPrefixes } from "./unknown-prefixes.js";

const DAY = 86_400_000;
let dir: string;
let store: SqliteStore;
let now = 0;
const clock = { now: () => now };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-unknown-unit-"));
  store = new SqliteStore(join(dir, "iccid.db"));
  await store.migrate();
  now = Date.UTC(2026, 10, 20, 10, 0, 0);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("UnknownPrefixes", () => {
  it("counts by the first seven digits and the UTC day, and writes nothing until a flush", async () => {
    let counted = 0;
    const unknown = new UnknownPrefixes(store, clock, 60_000, () => counted++);
    unknown.note("89720001111111111111");
    now += 1_000;
    unknown.note("89720002222222222222");
    unknown.note("8999998444444444444");
    expect(await store.unknownPrefixes(0)).toEqual([]);
    await unknown.flush();
    expect(await store.unknownPrefixes(0)).toEqual([
      { prefix: "8972000", count: 2, first_seen: now - 1_000, last_seen: now },
      { prefix: "8999998", count: 1, first_seen: now, last_seen: now },
    ]);
    expect(counted).toBe(3);

    // The next day adds a row of its own; the sum over days is listed, and --since leaves the first day out.
    now += DAY;
    unknown.note("89999981");
    unknown.note("89999982");
    await unknown.stop();
    expect(await store.unknownPrefixes(0)).toEqual([
      { prefix: "8999998", count: 3, first_seen: now - DAY, last_seen: now },
      { prefix: "8972000", count: 2, first_seen: now - DAY - 1_000, last_seen: now - DAY },
    ]);
    expect(await store.unknownPrefixes(now - (now % DAY))).toEqual([{ prefix: "8999998", count: 2, first_seen: now, last_seen: now }]);
  });

  it("keeps the counts of a flush that failed, and writes them with the next", async () => {
    // The counter writes to whichever store is open now: the first is closed under it, so its flush fails.
    let current = store;
    const unknown = new UnknownPrefixes({ addUnknownPrefixes: (c) => current.addUnknownPrefixes(c), unknownPrefixes: (d) => current.unknownPrefixes(d) }, clock, 60_000);
    unknown.note("89720001111111111111");
    await store.close();
    await expect(unknown.flush()).rejects.toThrow();
    now += 5_000;
    unknown.note("89720003333333333333");
    current = store = new SqliteStore(join(dir, "iccid.db"));
    await unknown.flush();
    expect(await store.unknownPrefixes(0)).toEqual([{ prefix: "8972000", count: 2, first_seen: now - 5_000, last_seen: now }]);
  });
});
