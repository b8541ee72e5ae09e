import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses } from "../../test-support/index.js";
import { eventually } from "../eventually.js";
import { outOfBound, summary, throughFault } from "../stall-load.js";
import { BOUND_MS, startStallServer, TIMEOUT_S, type StallServer } from "./stall-server.js";

// PostgreSQL's own statement_timeout, shorter than the query timeout, as an operator sets it on the database
// or role behind a transaction pooler (where the server sets none itself): a charge cancelled by it (SQLSTATE
// 57014) committed nothing, and is answered 503 with Retry-After, not 500.
let s: StallServer;

beforeAll(async () => {
  // Declared, though nothing pools: the server then sets no statement_timeout of its own.
  s = await startStallServer({ args: ["--pg-pooler", "transaction"], databaseSetting: "statement_timeout = '500ms'" });
});
afterAll(async () => {
  await s?.close();
  killServerProcesses();
});

describe("a statement_timeout shorter than the query timeout, under a held lock", () => {
  it("answers 503 with Retry-After, never 500, and meters exactly", async () => {
    const { direct } = s;
    expect((await direct.query("SHOW statement_timeout")).rows[0].statement_timeout).toBe("500ms");
    const before = (await s.metered()).requests;
    const answers = await throughFault(s.server.url, s.key, { faultMs: TIMEOUT_S * 1000 + 1_000 }, async () => {
      await direct.query("BEGIN");
      await direct.query("LOCK TABLE usage_counters IN EXCLUSIVE MODE");
      return async () => void (await direct.query("ROLLBACK"));
    });
    console.log("statement_timeout 500 ms behind a lock:", summary(answers));
    expect(outOfBound(answers, BOUND_MS)).toEqual([]);
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    const answered = before + answers.filter((a) => a.status === 200).length;
    await eventually(async () => expect(await s.metered()).toEqual({ requests: answered, lookups: answered, used: answered }));
  });
});
