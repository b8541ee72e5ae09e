import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses } from "../../test-support/index.js";
import { eventually } from "../eventually.js";
import { outOfBound, summary, throughFault } from "../stall-load.js";
import { BOUND_MS, startStallServer, TIMEOUT_S, type StallServer } from "./stall-server.js";

// The database stops answering without a word: every backend serving the server's connections is stopped
// (SIGSTOP), and so is each new one it opens while the fault lasts, then all are continued (SIGCONT). No
// error, no closed connection: only silence. Every lookup is answered 200 or 503 with Retry-After within the
// query timeout (and a margin), and once PostgreSQL answers again every 200 is metered exactly once and no
// 503 is (a commit the server could not resolve in time is refunded if it did commit).
let s: StallServer;

beforeAll(async () => {
  s = await startStallServer();
});
afterAll(async () => {
  await s?.close();
  killServerProcesses();
});

/** Stops every client backend of the database but the test's own, again every 100 ms, until ended; then continues them all. */
async function stopBackends(): Promise<() => Promise<void>> {
  const stopped = new Set<number>();
  let ending = false;
  const stopAll = async () => {
    const { rows } = await s.direct.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
    );
    for (const { pid } of rows) {
      if (stopped.has(pid)) continue;
      process.kill(pid, "SIGSTOP");
      stopped.add(pid);
    }
  };
  await stopAll();
  const again = (async () => {
    while (!ending) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (!ending) await stopAll();
    }
  })();
  return async () => {
    ending = true;
    try {
      await again;
    } finally {
      for (const pid of stopped) {
        try {
          process.kill(pid, "SIGCONT");
        } catch {
          // gone already
        }
      }
    }
  };
}

describe("backends stopped past the query timeout", () => {
  it("200 or 503 within the bound, and metered exactly once PostgreSQL answers again", { timeout: 90_000 }, async () => {
    const before = (await s.metered()).requests;
    let end: (() => Promise<void>) | undefined;
    try {
      const answers = await throughFault(s.server.url, s.key, { faultMs: TIMEOUT_S * 1000 + 3_000, afterMs: 4_000 }, async () => {
        end = await stopBackends();
        return end;
      });
      console.log("stopped backends:", summary(answers));
      expect(outOfBound(answers, BOUND_MS)).toEqual([]);
      expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
      expect(answers.at(-1)!.status).toBe(200);
      const answered = before + answers.filter((a) => a.status === 200).length;
      await eventually(async () => expect(await s.metered()).toEqual({ requests: answered, lookups: answered, used: answered }), 30_000);
    } finally {
      await end?.();
    }
  });
});
