import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Accounts } from "../../src/services/accounts.js";
import { StoreUnavailable } from "../../src/store/errors.js";
import { createTestSchema, onPort, TcpRelay, type TestSchema } from "../../test-support/index.js";
import { PgStore } from "../../src/store/postgres/pg-store.js";
import type { Charge } from "../../src/store/store.js";
import { systemClock } from "../../src/time.js";
import { eventually } from "../eventually.js";

// A charge's COMMIT whose connection drops: through a relay that cuts the connection at that exact point,
// before COMMIT reaches PostgreSQL or after it did but before the answer came back. The store must report
// what happened: charged when it committed, 503 and nothing written when it did not.
const PG = new URL(process.env.ICCID_TEST_POSTGRES_URL!);

let schema: TestSchema;
let relay: TcpRelay;
let store: PgStore;
let charge: (lookups: number) => Charge;

beforeAll(async () => {
  schema = await createTestSchema(PG.href);
  relay = await TcpRelay.start(PG.hostname, Number(PG.port || 5432));
  store = new PgStore(onPort(PG.href, relay.port), { schema: schema.name });
  await store.migrate();
  await store.upsertPlan({ name: "standard", rate_limit: 100, window_seconds: 60, monthly_lookups: 1_000 });
  const account = await new Accounts(store, systemClock).create({ email: "commit@example.test", password: "long-enough-password", plan: "standard" });
  charge = (lookups) => ({ account_id: account.id, key_id: "key_test", period_start: 0, bucket_start: 0, lookups, quota_limit: 1_000 });
});
afterAll(async () => {
  await store?.close();
  await relay?.close();
  await schema?.drop();
});

describe("a COMMIT whose connection drops", () => {
  it("after PostgreSQL committed: the charge stands and is reported as charged, not 503 (which a client would retry)", async () => {
    relay.cutAt("COMMIT", "after");
    await expect(store.charge(charge(3))).resolves.toEqual({ charged: true, used: 3 });
    expect(relay.trapsSprung).toBe(1); // the COMMIT's answer really was lost
    expect(await store.quotaUsed(charge(0).account_id, 0)).toBe(3);
  });

  it("before PostgreSQL got it: 503 unavailable, and nothing was charged", async () => {
    relay.cutAt("COMMIT", "before");
    await expect(store.charge(charge(5))).rejects.toBeInstanceOf(StoreUnavailable);
    expect(relay.trapsSprung).toBe(2);
    expect(await store.quotaUsed(charge(0).account_id, 0)).toBe(3);
    await expect(store.charge(charge(1))).resolves.toEqual({ charged: true, used: 4 });
  });

  it("when PostgreSQL cannot say for 5 s whether it committed: 503, and the charge refunded once it can", { timeout: 30_000 }, async () => {
    const direct = new pg.Pool({ connectionString: PG.href, options: `-c search_path=${schema.name}`, max: 1 });
    const counters = async () => {
      const quota = await direct.query("SELECT used FROM quota_counters WHERE account_id = $1 AND period_start = 0", [charge(0).account_id]);
      const usage = await direct.query("SELECT requests, lookups FROM usage_counters WHERE account_id = $1 AND bucket_start = 0", [charge(0).account_id]);
      return { used: Number(quota.rows[0].used), requests: Number(usage.rows[0].requests), lookups: Number(usage.rows[0].lookups) };
    };
    try {
      const before = await counters();
      relay.cutAt("COMMIT", "after", { thenDown: true });
      await expect(store.charge(charge(7))).rejects.toBeInstanceOf(StoreUnavailable);
      expect(relay.trapsSprung).toBe(3);
      // It did commit: answered 503, charged all the same, until PostgreSQL can be asked again.
      expect(await counters()).toEqual({ used: before.used + 7, requests: before.requests + 1, lookups: before.lookups + 7 });
      relay.refuse(false);
      await eventually(async () => expect(await counters()).toEqual(before));
      await expect(store.charge(charge(1))).resolves.toEqual({ charged: true, used: before.used + 1 });
    } finally {
      relay.refuse(false);
      await direct.end();
    }
  });
});
