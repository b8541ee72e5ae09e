import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  killRedisServers,
  killServerProcesses,
  ownerCredentials,
  startRedisServer,
  startServerProcess,
  type RedisServer,
  type ServerProcess,
  type TestDatabase,
} from "../../test-support/index.js";
import { eventually } from "../eventually.js";
import { call } from "../http.js";

// Two built servers on one PostgreSQL database and a Redis of the test's own, which is then stopped cold
// (SIGSTOP: it keeps its port and connections and answers nothing) and resumed. While it is stopped every
// request is answered by the in-memory limiters within about a second, never after the whole stall;
// /readyz and a log line say Redis is not answering; once it answers again all is shared again by itself.

const PG = process.env.ICCID_TEST_POSTGRES_URL!;
/** How long Redis stays stopped at most: far longer than any answer may take while it is. */
const STALL_MS = 12_000;
/** The most an answer may take while Redis is stopped: its silence limit (1 s) and room for a busy machine. */
const ANSWER_WITHIN_MS = 3_000;

let database: TestDatabase;
let redis: RedisServer;
let observer: Redis;
let servers: ServerProcess[] = [];
let owner: { email: string; password: string; key: string };

/** The shared rate-limit points counted in Redis under the servers' prefix. */
async function countedInRedis(): Promise<number> {
  const keys = await observer.keys("stall-test:rl:*");
  const values = keys.length > 0 ? await observer.mget(...keys) : [];
  return values.reduce((sum, v) => sum + Number(v ?? 0), 0);
}

async function timed<T>(work: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await work();
  return { answer, ms: performance.now() - started };
}

/** A lookup, a usage read and a sign-in on `url`, each timed. */
const keyedRequests = (url: string) => [
  timed(() => call(url, "POST", "/api/v1/iccid/lookup", { key: owner.key, body: { iccid: "89441000000000000018" } })),
  timed(() => call(url, "GET", "/api/v1/usage", { key: owner.key })),
  timed(() => call(url, "POST", "/api/v1/session", { body: { email: owner.email, password: owner.password } })),
];

beforeAll(async () => {
  database = await createTestDatabase(PG);
  redis = await startRedisServer();
  observer = new Redis(redis.url);
  const db = Object.assign(new URL(PG), { pathname: `/${database.name}` }).toString();
  const args = ["--redis", redis.url, "--redis-prefix", "stall-test", "--log-format", "json"];
  const first = await startServerProcess(db, { args });
  owner = await ownerCredentials(first);
  servers = [first, await startServerProcess(db, { args })];
});

afterAll(async () => {
  killServerProcesses();
  observer?.disconnect();
  killRedisServers();
  await database?.drop();
});

describe("a hung Redis (stopped with SIGSTOP) under two instances", { timeout: 120_000 }, () => {
  it("costs a request at most about a second, is reported by /readyz and the log, and heals by itself", async () => {
    for (const server of servers) {
      expect((await call(server.url, "GET", "/readyz")).status).toBe(200);
      for (const r of await Promise.all(keyedRequests(server.url))) expect(r.answer.status).toBeLessThan(300);
    }
    expect(await countedInRedis()).toBeGreaterThan(0);
    // Redis answered from the start: nothing said of it beyond the listening line, so the recovery below is seen.
    for (const server of servers) expect(server.stdout()).not.toMatch(/"msg":"redis (not )?answering/);

    redis.pause();
    const resume = setTimeout(() => redis.resume(), STALL_MS);
    try {
      // Twice on each instance: the first requests meet the silent connection, the next ones the fallback.
      for (let round = 0; round < 2; round++) {
        const answers = await Promise.all(servers.flatMap((server) => keyedRequests(server.url)));
        for (const { answer, ms } of answers) {
          expect(answer.status).toBeLessThan(300);
          expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
        }
      }
      for (const server of servers) {
        await eventually(async () => {
          const ready = await call(server.url, "GET", "/readyz");
          // Still ready (every instance answers from its own limits), and saying what is missing.
          expect(ready.status).toBe(200);
          expect(ready.body).toMatchObject({ status: "degraded", detail: expect.stringMatching(/Redis is not answering/) });
        });
        expect(server.stdout()).toMatch(/"level":40,[^\n]*"msg":"redis not answering/);
      }
    } finally {
      clearTimeout(resume);
      redis.resume();
    }

    // Recovery by itself: ready again, said in the log, and the limits counted in Redis again.
    for (const server of servers) {
      await eventually(async () => expect((await call(server.url, "GET", "/readyz")).body).toEqual({ status: "ok" }));
      await server.waitForOutput("stdout", /"msg":"redis answering/);
    }
    const before = await countedInRedis();
    for (const server of servers) {
      const lookup = await call(server.url, "POST", "/api/v1/iccid/lookup", { key: owner.key, body: { iccid: "89441000000000000018" } });
      expect(lookup.status).toBe(200);
    }
    expect(await countedInRedis()).toBeGreaterThan(before);
  });

  it("started while Redis is stopped: serves at once, logs the outage once and the recovery once", async () => {
    redis.pause();
    let late: ServerProcess;
    try {
      const db = Object.assign(new URL(PG), { pathname: `/${database.name}` }).toString();
      late = await startServerProcess(db, { args: ["--redis", redis.url, "--redis-prefix", "stall-test", "--log-format", "json"] });
      servers.push(late);
      const lookup = await timed(() => call(late.url, "POST", "/api/v1/iccid/lookup", { key: owner.key, body: { iccid: "89441000000000000018" } }));
      expect(lookup.answer.status).toBe(200);
      expect(lookup.ms).toBeLessThan(ANSWER_WITHIN_MS);
      await late.waitForOutput("stdout", /"level":40,[^\n]*"msg":"redis not answering/);
    } finally {
      redis.resume();
    }
    await late.waitForOutput("stdout", /"msg":"redis answering: rate limits are shared from now on"/);
    await eventually(async () => expect((await call(late.url, "GET", "/readyz")).body).toEqual({ status: "ok" }));
    expect(late.stdout().match(/"msg":"redis (not )?answering/g)).toEqual(["\"msg\":\"redis not answering", "\"msg\":\"redis answering"]);
  });
});
