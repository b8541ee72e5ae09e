import { luhnCheckDigit } from "@iccid/core";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { IccidDecoder } from "../../src/decode/decoder.js";
import { listen, type RunningServer } from "../../src/http-server.js";
import { redisLimiters } from "../../src/limits/redis-limiters.js";
import { connectRedis, redisReady } from "../../src/redis.js";
import { Accounts } from "../../src/services/accounts.js";
import { RedisClaims } from "../../src/services/redis-claims.js";
import { ApiKeys } from "../../src/services/api-keys.js";
import { PgStore } from "../../src/store/postgres/pg-store.js";
import { systemClock } from "../../src/time.js";
import { createTestSchema, type TestSchema } from "../../test-support/index.js";
import { call } from "../http.js";

// Two instances on one PostgreSQL and one Redis: an Idempotency-Key answered by one is replayed by the
// other, including after the first one stopped; a duplicate running on one is refused by the other.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;
const REDIS = process.env.ICCID_TEST_REDIS_URL!;

let schema: TestSchema;
const instances: Array<{ running: RunningServer; store: PgStore; redis: Redis }> = [];
let key: string;
const withCheck = (body: string) => body + luhnCheckDigit(body);
const iccids = Array.from({ length: 1000 }, (_, i) => withCheck(`8944100000${String(i).padStart(8, "0")}`));

beforeAll(async () => {
  schema = await createTestSchema(PG);
  for (let i = 0; i < 2; i++) {
    const store = new PgStore(PG, { schema: schema.name });
    await store.migrate();
    const redis = connectRedis(REDIS);
    expect(await redisReady(redis)).toBe(true);
    const app = createApp({ store, decoder: new IccidDecoder(), limiterFactory: redisLimiters(redis, `iccid-test:${schema.name}`),
      claims: new RedisClaims(redis, `iccid-test:${schema.name}`),
    });
    instances.push({ running: await listen(app, { host: "127.0.0.1", port: 0, store }), store, redis });
  }
  const store = instances[0]!.store;
  await store.upsertPlan({ name: "standard", rate_limit: 1_000, window_seconds: 60, monthly_lookups: 1_000_000 });
  const account = await new Accounts(store, systemClock).create({ email: "idem@example.test", password: "correct horse battery staple", plan: "standard" });
  key = (await new ApiKeys(store, systemClock).create(account.id, "shared")).key;
});

afterAll(async () => {
  for (const { running, redis } of instances) {
    await running.close().catch(() => undefined);
    await redis.quit();
  }
  await schema?.drop();
});

const batch = (url: string, idempotencyKey: string, accept = "text/csv") =>
  call(url, "POST", "/api/v1/iccid/batch", { key, body: { iccids }, headers: { "idempotency-key": idempotencyKey, accept } });
const usage = async (url: string) => (await call(url, "GET", "/api/v1/usage", { key })).body.totals;

describe("Idempotency-Key across instances on PostgreSQL", () => {
  it("runs concurrent duplicates sent to both instances once", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => batch(instances[i % 2]!.running.url, "spread")));
    const ran = answers.filter((a) => a.status === 200 && a.headers["idempotent-replayed"] === undefined);
    expect(ran).toHaveLength(1);
    for (const a of answers) if (a.status !== 200) expect([a.status, a.body.code]).toEqual([409, "idempotency_key_in_use"]);
    expect(await usage(instances[1]!.running.url)).toEqual({ requests: 1, lookups: 1000 });
  });

  it("replays on the other instance, also after the first one stopped", async () => {
    const [a, b] = instances.map((i) => i.running.url) as [string, string];
    const first = await batch(a, "chunk-0");
    expect(first.status).toBe(200);
    await instances[0]!.running.close();
    const replay = await batch(b, "chunk-0");
    expect(replay.status).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(replay.text).toBe(first.text);
    const reused = await call(b, "POST", "/api/v1/iccid/batch", { key, body: { iccids: iccids.slice(1) }, headers: { "idempotency-key": "chunk-0" } });
    expect(reused.body.code).toBe("idempotency_key_reused");
    expect(await usage(b)).toEqual({ requests: 2, lookups: 2000 });
  });
});
