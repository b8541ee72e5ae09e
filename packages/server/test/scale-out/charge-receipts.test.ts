import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Accounts } from "../../src/services/accounts.js";
import { claimReceipt } from "../../src/store/group-commit/charge-receipts.js";
import { PgStore } from "../../src/store/postgres/pg-store.js";
import type { Charge } from "../../src/store/store.js";
import { systemClock } from "../../src/time.js";
import { createTestSchema, type TestSchema } from "../../test-support/index.js";

// A group commit is one call of commit_charges, which leaves a receipt: what resolves an answer lost with
// its connection. The lost-commit test cuts real connections; this one checks the receipts themselves.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;

let schema: TestSchema;
let store: PgStore;
let pool: pg.Pool;
let accountId: string;
const charge = (lookups: number): Charge => ({ account_id: accountId, key_id: "key_test", period_start: 0, bucket_start: 0, lookups, quota_limit: 1_000 });

beforeAll(async () => {
  schema = await createTestSchema(PG);
  store = new PgStore(PG, { schema: schema.name });
  await store.migrate();
  await store.upsertPlan({ name: "standard", rate_limit: 100, window_seconds: 60, monthly_lookups: 1_000 });
  accountId = (await new Accounts(store, systemClock).create({ email: "receipts@example.test", password: "long-enough-password", plan: "standard" })).id;
  // BIGINT read as numbers, as the store reads them.
  const types = { getTypeParser: (oid: number, format?: string) => (oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as "text")) };
  pool = new pg.Pool({ connectionString: PG, options: `-c search_path=${schema.name}`, max: 2, types });
});
afterAll(async () => {
  await pool?.end();
  await store?.close();
  await schema?.drop();
});

/** commit_charges called by hand with `token`, for one charge of `lookups` without a proof. */
const commitByHand = (token: string, lookups: number) =>
  pool.query("SELECT charged, used FROM commit_charges($1, $2, '{}', $3, '{0}', '{1000}', '{0}', '{key_test}', $4, '{1}', $4, '{NULL}', '{NULL}', '{0}', '{0}', 0)", [
    token,
    Date.now(),
    [accountId],
    [lookups],
  ]);

const receipts = async () => Number((await pool.query("SELECT count(*) AS n FROM charge_receipts")).rows[0].n);

describe("charge receipts", () => {
  it("tell a resolver what a commit that happened answered", async () => {
    const token = randomUUID();
    expect((await commitByHand(token, 2)).rows).toEqual([{ charged: true, used: 2 }]);
    expect(await claimReceipt(pool, token, performance.now() + 5_000)).toEqual([{ charged: true, used: 2 }]);
    expect(await store.quotaUsed(accountId, 0)).toBe(2);
  });

  it("once claimed by a resolver, make the commit fail should it still arrive: nothing charged", async () => {
    const token = randomUUID();
    expect(await claimReceipt(pool, token, performance.now() + 5_000)).toBeNull(); // it never came: not committed, and now never will be
    await expect(commitByHand(token, 5)).rejects.toMatchObject({ code: "23505" });
    expect(await store.quotaUsed(accountId, 0)).toBe(2);
    expect(await claimReceipt(pool, token, performance.now() + 5_000)).toBeNull(); // asked again (an answer lost twice): still not
  });

  it("are deleted by the next group commit once their answers arrived", async () => {
    const before = await receipts();
    for (let i = 0; i < 5; i++) await expect(store.charge(charge(1))).resolves.toEqual({ charged: true, used: 3 + i });
    expect(await receipts()).toBe(before + 1); // only the last one's answer is yet to be forgotten
  });
});
