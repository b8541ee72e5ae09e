import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Charge } from "../src/store/store.js";
import { startTestServer, type TestServer } from "../test-support/index.js";

// Charges arriving together share one commit (group commit), and on PostgreSQL a group that moves the
// same counters is charged with one statement when it fits. Either way the outcome must be what charging
// the requests one after another would give. Runs on SQLite and, in server-postgres, on PostgreSQL.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function chargesAtOnce(lookups: number[], quotaLimit: number) {
  const account = await server.createAccount();
  const charge = (n: number): Charge => ({ account_id: account.id, key_id: account.keyId, period_start: 1_000, bucket_start: 2_000, lookups: n, quota_limit: quotaLimit });
  const outcomes = await Promise.all(lookups.map((n) => server.store.charge(charge(n)))); // one grouping window: one commit
  return { outcomes, used: await server.store.quotaUsed(account.id, 1_000), usage: await server.store.usageSums(account.id, [{ from: 0, to: 10_000 }]) };
}

describe("charges committed together", () => {
  it.each([
    {
      name: "that fit together: all charged, each answered the count it would have seen alone, in order",
      lookups: [2, 0, 3, 1],
      quotaLimit: 100,
      outcomes: [{ charged: true, used: 2 }, { charged: true, used: 2 }, { charged: true, used: 5 }, { charged: true, used: 6 }],
      usage: { used: 6, requests: 4, lookups: 6 },
    },
    {
      name: "that do not fit together: charged one by one, those that fit in arrival order, the others refused",
      lookups: [2, 2, 2, 1],
      quotaLimit: 5,
      outcomes: [{ charged: true, used: 2 }, { charged: true, used: 4 }, { charged: false, used: 4 }, { charged: true, used: 5 }],
      usage: { used: 5, requests: 3, lookups: 5 },
    },
  ])("$name", async ({ lookups, quotaLimit, outcomes, usage }) => {
    const charged = await chargesAtOnce(lookups, quotaLimit);
    expect(charged.outcomes).toEqual(outcomes);
    expect(charged.used).toBe(usage.used);
    expect(charged.usage).toEqual([expect.objectContaining({ requests: usage.requests, lookups: usage.lookups })]);
  });
});
