import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LoginThrottle, memoryLimiters } from "../limits/rate-limit.js";
import { DEFAULT_PLAN } from "../settings.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { Accounts } from "./accounts.js";
import { Sessions } from "./sessions.js";

const HOUR = 3_600_000;

describe("Sessions on a real SQLite file", () => {
  let dir: string;
  let store: SqliteStore;
  let now: number;
  let sessions: Sessions;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "iccid-sessions-"));
    store = new SqliteStore(join(dir, "iccid.db"));
    await store.migrate();
    await store.upsertPlan(DEFAULT_PLAN);
    now = Date.UTC(2026, 0, 1);
    const clock = { now: () => now };
    await new Accounts(store, clock).create({ email: "a@example.com", password: "correct horse", plan: DEFAULT_PLAN.name });
    sessions = new Sessions(store, clock, new LoginThrottle(memoryLimiters, 5, 20, 900, 100), 12 * HOUR, 7 * 24 * HOUR);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("deletes expired sessions at the next sign-in, and keeps live ones", async () => {
    const stale = await sessions.login("a@example.com", "correct horse", "127.0.0.1");
    now += 13 * HOUR; // past the 12-hour idle expiry
    const live = await sessions.login("a@example.com", "correct horse", "127.0.0.1");
    now += HOUR;
    await sessions.login("a@example.com", "correct horse", "127.0.0.1");

    expect(await store.findSession(stale.active.hash)).toBeUndefined();
    expect(await store.findSession(live.active.hash)).toBeDefined();
  });
});
