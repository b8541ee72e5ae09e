import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses } from "../../test-support/index.js";
import { eventually } from "../eventually.js";
import { call } from "../http.js";
import { outOfBound, summary, throughFault } from "../stall-load.js";
import { BOUND_MS, startStallServer, TIMEOUT_S, type StallServer } from "./stall-server.js";

// A lock held on what the charges write, from a connection of the test's own, for longer than the query
// timeout: every lookup is answered 200 or 503 with Retry-After within the timeout (and a margin), every
// 200 is metered exactly once and no 503 is, /readyz says the charges are stalled while they are, and
// PostgreSQL itself stops waiting soon after the server gave up (statement_timeout on its sessions).
let s: StallServer;

beforeAll(async () => {
  s = await startStallServer();
});
afterAll(async () => {
  await s?.close();
  killServerProcesses();
});

/** Holds `lock` (statements run in a transaction of the direct connection) until the returned end is called. */
const holding = (...lock: string[]) => async () => {
  await s.direct.query("BEGIN");
  for (const statement of lock) await s.direct.query(statement);
  return async () => void (await s.direct.query("ROLLBACK"));
};

async function expectExactMetering(answered: number): Promise<void> {
  // A commit answered 503 before PostgreSQL could say whether it committed is refunded once it can.
  await eventually(async () => expect(await s.metered()).toEqual({ requests: answered, lookups: answered, used: answered }));
}

describe("a lock held past the query timeout", () => {
  it("on usage_counters: 200 or 503 within the bound, metered exactly; /readyz not ready meanwhile; no backend left waiting", async () => {
    const before = (await s.metered()).requests;
    const readiness: Array<{ status: number; detail?: string }> = [];
    let lingering = -1;
    const answers = await throughFault(s.server.url, s.key, { faultMs: TIMEOUT_S * 1000 + 3_000 }, async () => {
      const end = await holding("LOCK TABLE usage_counters IN EXCLUSIVE MODE")();
      const started = Date.now();
      const probing = (async () => {
        while (Date.now() - started < TIMEOUT_S * 1000 + 2_500) {
          const r = await call(s.server.url, "GET", "/readyz");
          readiness.push({ status: r.status, detail: r.body?.detail });
          await sleep(200);
        }
      })();
      return async () => {
        await probing;
        // Statements still waiting for the lock well past the timeout: the server's sessions would keep them.
        // clock_timestamp(): now() is the start of the transaction that holds the lock.
        const waiting = await s.direct.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND clock_timestamp() - query_start > $1::interval",
          [`${TIMEOUT_S + 1} seconds`],
        );
        lingering = waiting.rows[0].n;
        await end();
      };
    });
    console.log("lock on usage_counters:", summary(answers));
    expect(outOfBound(answers, BOUND_MS)).toEqual([]);
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    expect(answers.at(-1)!.status).toBe(200);
    expect(lingering).toBe(0);
    const stalled = readiness.filter((r) => r.status === 503);
    expect(stalled.length).toBeGreaterThan(0);
    expect(stalled[0]!.detail).toMatch(/cannot be charged/);
    await eventually(async () => expect((await call(s.server.url, "GET", "/readyz")).status).toBe(200));
    await expectExactMetering(before + answers.filter((a) => a.status === 200).length);
  });

  it("on the account's quota row (FOR UPDATE): 200 or 503 within the bound, metered exactly", async () => {
    const before = (await s.metered()).requests;
    const answers = await throughFault(s.server.url, s.key, { faultMs: TIMEOUT_S * 1000 + 3_000 }, holding("SELECT used FROM quota_counters FOR UPDATE"));
    console.log("row lock on quota_counters:", summary(answers));
    expect(outOfBound(answers, BOUND_MS)).toEqual([]);
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    await expectExactMetering(before + answers.filter((a) => a.status === 200).length);
  });
});
