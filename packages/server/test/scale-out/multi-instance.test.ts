import { luhnCheckDigit } from "@iccid/core";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { IccidDecoder } from "../../src/decode/decoder.js";
import { listen, type RunningServer } from "../../src/http-server.js";
import { redisLimiters } from "../../src/limits/redis-limiters.js";
import { connectRedis, redisReady } from "../../src/redis.js";
import { Accounts } from "../../src/services/accounts.js";
import { ApiKeys } from "../../src/services/api-keys.js";
import { PgStore } from "../../src/store/postgres/pg-store.js";
import { systemClock } from "../../src/time.js";
import { createTestSchema, type TestSchema } from "../../test-support/index.js";
import { call, sessionCookie } from "../http.js";

// Three instances on one PostgreSQL schema and one Redis namespace: any instance answers any request.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;
const REDIS = process.env.ICCID_TEST_REDIS_URL!;

let schema: TestSchema;
const instances: Array<{ running: RunningServer; store: PgStore; redis: Redis }> = [];
const urls = () => instances.map((i) => i.running.url);
let owner: { email: string; password: string; key: string };

const withCheck = (body: string) => body + luhnCheckDigit(body);
/** The bound docs/deploy.md promises for a revocation to reach every instance. */
const REVOCATION_BOUND_MS = 1_000;

beforeAll(async () => {
  schema = await createTestSchema(PG);
  const namespace = `iccid-test:${schema.name}`;
  const stores = [0, 1, 2].map(() => new PgStore(PG, { schema: schema.name }));
  // All three migrate at once, as instances started together do: the advisory lock makes it safe.
  await Promise.all(stores.map((s) => s.migrate()));
  await stores[0]!.upsertPlan({ name: "standard", rate_limit: 100, window_seconds: 60, monthly_lookups: 1_000_000 });
  await stores[0]!.upsertPlan({ name: "small", rate_limit: 10_000, window_seconds: 60, monthly_lookups: 20 });
  const password = "correct horse battery staple";
  const account = await new Accounts(stores[0]!, systemClock).create({ email: "ops@example.test", password, plan: "standard" });
  owner = { email: account.email, password, key: (await new ApiKeys(stores[0]!, systemClock).create(account.id, "shared")).key };
  for (const store of stores) {
    const redis = connectRedis(REDIS);
    expect(await redisReady(redis)).toBe(true);
    const app = createApp({ store, decoder: new IccidDecoder(), limiterFactory: redisLimiters(redis, namespace) });
    instances.push({ running: await listen(app, { host: "127.0.0.1", port: 0, store }), store, redis });
  }
});

afterAll(async () => {
  for (const { running, redis } of instances) {
    await running.close();
    await redis.quit();
  }
  await schema?.drop();
});

describe("three instances on one PostgreSQL and one Redis", () => {
  it("share a rate limit of 100 exactly, with exact RateLimit fields and exact usage totals", async () => {
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        call(urls()[i % 3]!, "POST", "/api/v1/iccid/lookup", { key: owner.key, body: { iccid: withCheck(`8944100000${String(i).padStart(8, "0")}`) } }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(100);
    expect(limited).toHaveLength(50);
    for (const a of limited) expect(a.body.code).toBe("rate_limited");
    // Each admitted request saw a different remaining count: one counter, not three.
    const remaining = ok.map((a) => Number(/r=(\d+)/.exec(a.headers.ratelimit!)![1])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => i));

    for (const url of urls()) {
      const usage = await call(url, "GET", "/api/v1/usage", { key: owner.key });
      expect(usage.body.totals).toEqual({ requests: 100, lookups: 100 });
      expect(usage.body.quota.used).toBe(100);
    }
  });

  it("never overruns a quota under concurrent requests spread over the instances", async () => {
    const account = await new Accounts(instances[0]!.store, systemClock).create({ email: "small@example.test", password: "x-long-password", plan: "small" });
    const key = (await new ApiKeys(instances[0]!.store, systemClock).create(account.id, null)).key;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(urls()[i % 3]!, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: withCheck(`8944100001${String(i).padStart(8, "0")}`) } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body.code)).toEqual(Array(10).fill("quota_exceeded"));
    const usage = await call(urls()[2]!, "GET", "/api/v1/usage", { key });
    expect(usage.body.quota).toMatchObject({ used: 20, remaining: 0 });
    expect(usage.body.totals).toEqual({ requests: 20, lookups: 20 });
  });

  it("accepts a session made on one instance on the others, and a key revoked on one is refused by all at once", async () => {
    const cookie = sessionCookie(await call(urls()[0]!, "POST", "/api/v1/session", { body: { email: owner.email, password: owner.password } }));
    const created = await call(urls()[1]!, "POST", "/api/v1/keys", { cookie, body: { name: "to revoke" } });
    expect(created.status).toBe(201);
    expect((await call(urls()[2]!, "GET", "/api/v1/keys", { cookie })).body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);

    expect((await call(urls()[0]!, "DELETE", `/api/v1/keys/${created.body.id}`, { cookie })).status).toBe(204);
    for (const url of urls()) {
      const r = await call(url, "POST", "/api/v1/iccid/lookup", { key: created.body.key, body: { iccid: "89441000000000000018" } });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("revoked_api_key");
    }
  });

  it("a key rolled on one instance is refused by the others once its grace ends; one past expires_at by every instance", async () => {
    await instances[0]!.store.upsertPlan({ name: "roomy", rate_limit: 10_000, window_seconds: 60, monthly_lookups: 1_000_000 });
    const password = "roller-long-password";
    const roller = await new Accounts(instances[0]!.store, systemClock).create({ email: "roller@example.test", password, plan: "roomy" });
    const cookie = sessionCookie(await call(urls()[0]!, "POST", "/api/v1/session", { body: { email: roller.email, password } }));
    const lookup = (url: string, key: string) => call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } });
    // Expires in 3 s: every instance caches its grant before, and refuses it after, on its next request.
    const expiring = (await call(urls()[1]!, "POST", "/api/v1/keys", { cookie, body: { expires_at: new Date(Date.now() + 3_000).toISOString() } })).body;
    const rolling = (await call(urls()[1]!, "POST", "/api/v1/keys", { cookie, body: { name: "rolled" } })).body;
    for (let round = 0; round < 2; round++) {
      for (const url of urls()) {
        expect((await lookup(url, expiring.key)).status).toBe(200);
        expect((await lookup(url, rolling.key)).status).toBe(200);
      }
    }

    const rolled = await call(urls()[0]!, "POST", `/api/v1/keys/${rolling.id}/roll`, { cookie, body: { grace_seconds: 0 } });
    expect(rolled.status).toBe(201);
    const rolledAt = performance.now();
    expect((await lookup(urls()[0]!, rolling.key)).body.code).toBe("expired_api_key");
    // The roll reaches the others as a revocation does: by notice, within the bound at most.
    const seen: Array<{ sentAfterMs: number; code: string | undefined }> = [];
    const sentLate = () => seen.filter((s) => s.sentAfterMs >= REVOCATION_BOUND_MS);
    while (sentLate().length < 4) {
      for (const url of urls().slice(1)) seen.push({ sentAfterMs: performance.now() - rolledAt, code: (await lookup(url, rolling.key)).body?.code });
    }
    expect(sentLate().map((s) => s.code)).toEqual(sentLate().map(() => "expired_api_key"));
    for (const url of urls()) expect((await lookup(url, rolled.body.key)).status).toBe(200);

    // expires_at is given to the second; the key stops at the instant asked for, within that second.
    while (Date.parse(expiring.expires_at) + 1_000 > Date.now()) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const url of urls()) expect((await lookup(url, expiring.key)).body.code).toBe("expired_api_key");
  });

  it("cache key grants, and still refuse a revoked key: the revoking instance at once, the others within 1 s", async () => {
    const cookie = sessionCookie(await call(urls()[0]!, "POST", "/api/v1/session", { body: { email: owner.email, password: owner.password } }));
    const created = await call(urls()[1]!, "POST", "/api/v1/keys", { cookie, body: { name: "cached, then revoked" } });
    const lookup = (url: string) => call(url, "POST", "/api/v1/iccid/lookup", { key: created.body.key, body: { iccid: "89441000000000000018" } });
    // Every instance checks the key, again and again, so that each holds its grant (the cache answers only
    // once an instance listens for changes, which its first key check starts).
    for (let round = 0; round < 5; round++) for (const url of urls()) expect((await lookup(url)).status).not.toBe(401);

    expect((await call(urls()[0]!, "DELETE", `/api/v1/keys/${created.body.id}`, { cookie })).status).toBe(204);
    const revokedAt = performance.now();
    expect((await lookup(urls()[0]!)).status).toBe(401);
    const seen: Array<{ sentAfterMs: number; status: number }> = [];
    const sentLate = () => seen.filter((s) => s.sentAfterMs >= REVOCATION_BOUND_MS);
    // Until each other instance has been asked three times after the bound, however slow the machine is.
    while (sentLate().length < 6) {
      for (const url of urls().slice(1)) {
        const sentAfterMs = performance.now() - revokedAt;
        seen.push({ sentAfterMs, status: (await lookup(url)).status });
      }
    }
    // A request sent once the bound has passed is refused, whatever else is going on on the machine.
    const late = sentLate();
    expect(late.map((s) => s.status)).toEqual(late.map(() => 401));
    // Notices make it far quicker than the bound (milliseconds); not asserted, the machine may be busy.
    const firstRefused = seen.find((s) => s.status === 401);
    console.log(`revoked key first refused by another instance ${Math.round(firstRefused!.sentAfterMs)} ms after the revocation`);
  });
});
