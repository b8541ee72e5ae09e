import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Charge, Proof } from "../src/store/store.js";
import { startTestServer, type TestServer } from "../test-support/index.js";

// A proof is written by its request's charge, in the same transaction: a charge whose proof is already
// there is not made. Runs on SQLite and, in server-postgres, on PostgreSQL (commit_charges).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const DAY = 24 * 3_600_000;
const proof = (at: number, lookups = 1): Proof => ({ key: randomBytes(16), fingerprint: randomBytes(16), status: 200, lookups, at });

async function account() {
  const a = await server.createAccount();
  const charge = (lookups: number, p?: Proof, quotaLimit = 100): Charge => ({
    account_id: a.id,
    key_id: a.keyId,
    period_start: 1_000,
    bucket_start: 2_000,
    lookups,
    quota_limit: quotaLimit,
    ...(p ? { proof: p } : {}),
  });
  const counters = async () => ({ used: await server.store.quotaUsed(a.id, 1_000), usage: (await server.store.usageSums(a.id, [{ from: 0, to: 10_000 }]))[0] });
  return { charge, counters };
}

describe("proofs written with their charge", () => {
  // First in the file: the rows it deletes are then the oldest, as the sweep finds them.
  it("replaces a proof past its window, and deletes the oldest proofs in batches", async () => {
    const { charge } = await account();
    const replaced = [proof(Date.now() - 3 * DAY), proof(Date.now() - 3 * DAY)];
    const expired = Array.from({ length: 5 }, () => proof(Date.now() - 2 * DAY));
    for (const p of [...replaced, ...expired]) expect(await server.store.charge(charge(1, p))).toMatchObject({ charged: true });
    // Past its window, a proof's key is free: the same key charged again is a new request.
    for (const p of replaced) expect(await server.store.charge(charge(1, { ...p, at: Date.now() }))).toMatchObject({ charged: true });
    let deleted = 0;
    for (let n; (n = await server.store.idempotency.deleteProofsBefore(Date.now() - DAY, 2)) > 0; ) deleted += n;
    expect(deleted).toBe(5);
    for (const p of expired) expect(await server.store.idempotency.findProof(p.key, 0)).toBeUndefined();
    for (const p of replaced) expect(await server.store.idempotency.findProof(p.key, Date.now() - DAY)).toBeDefined();
    await server.store.idempotency.reclaimSpace();
  });

  it("keeps the proof of a charge made; the same proof again is not charged and is answered as a replay", async () => {
    const { charge, counters } = await account();
    const p = proof(Date.now(), 3);
    expect(await server.store.charge(charge(3, p))).toEqual({ charged: true, used: 3 });
    expect(await server.store.idempotency.findProof(p.key, 0)).toEqual({ fingerprint: p.fingerprint, status: 200, answer: null });
    expect(await server.store.charge(charge(3, p))).toEqual({ charged: false, used: 3, replayed: true });
    expect(await counters()).toMatchObject({ used: 3, usage: { requests: 1, lookups: 3 } });
  });

  it("takes back only the proven one of charges committed together", async () => {
    const { charge, counters } = await account();
    const [a, b] = [proof(Date.now()), proof(Date.now())];
    expect(await server.store.charge(charge(1, a))).toMatchObject({ charged: true });
    const outcomes = await Promise.all([server.store.charge(charge(2, b)), server.store.charge(charge(1, a)), server.store.charge(charge(4))]);
    expect(outcomes.map((o) => ("replayed" in o ? "replayed" : o.charged))).toEqual([true, "replayed", true]);
    expect(await counters()).toMatchObject({ used: 7, usage: { requests: 3, lookups: 7 } });
  });

  it("keeps no proof of a charge refused over the quota", async () => {
    const { charge } = await account();
    const p = proof(Date.now(), 5);
    expect(await server.store.charge(charge(5, p, 4))).toMatchObject({ charged: false });
    expect(await server.store.idempotency.findProof(p.key, 0)).toBeUndefined();
  });
});
