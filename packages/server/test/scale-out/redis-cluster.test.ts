import { spawnSync } from "node:child_process";
import { Cluster, Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisLimiters } from "../../src/limits/redis-limiters.js";
import { redisReady } from "../../src/redis.js";
import { RedisHealth } from "../../src/redis-health.js";
import {
  createTestDatabase,
  killRedisServers,
  killServerProcesses,
  ownerCredentials,
  SERVER_BIN,
  startRedisCluster,
  startServerProcess,
  type RedisCluster,
  type ServerProcess,
  type TestDatabase,
} from "../../test-support/index.js";
import { eventually } from "../eventually.js";
import { call } from "../http.js";

// Two built servers on one PostgreSQL database and a three-master Redis Cluster of the test's own: limits
// exact across them; a master stopped cold and started again, degraded and recovered as a single Redis is;
// and a cluster node named as one Redis (or one Redis as a cluster) refused at start, or after start
// seen failing (MOVED) and reported.

const PG = process.env.ICCID_TEST_POSTGRES_URL!;
const ANSWER_WITHIN_MS = 3_000;

let database: TestDatabase;
let db: string;
let cluster: RedisCluster;
let servers: ServerProcess[] = [];
let owner: { email: string; password: string; key: string };

const lookup = (url: string, i = 0) => call(url, "POST", "/api/v1/iccid/lookup", { key: owner.key, body: { iccid: "89441000000000000018" }, headers: { "x-request-id": `r${i}` } });
const setPlan = (rateLimit: number) => {
  const r = spawnSync(process.execPath, [SERVER_BIN, "plan", "set", "standard", "--rate-limit", String(rateLimit), "--window", "60", "--db", db], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
};
const startArgs = (redis: string, ...more: string[]) => ["start", "--port", "0", "--db", db, "--redis", redis, "--redis-prefix", "cluster-test", ...more];

beforeAll(async () => {
  database = await createTestDatabase(PG);
  db = Object.assign(new URL(PG), { pathname: `/${database.name}` }).toString();
  cluster = await startRedisCluster(3);
  const args = ["--redis", cluster.urls, "--redis-cluster", "--redis-prefix", "cluster-test", "--log-format", "json"];
  const first = await startServerProcess(db, { args });
  owner = await ownerCredentials(first);
  servers = [first, await startServerProcess(db, { args })];
});

afterAll(async () => {
  killServerProcesses();
  await cluster?.close();
  killRedisServers();
  await database?.drop();
});

describe("a Redis Cluster under two instances", { timeout: 120_000 }, () => {
  it("lets exactly 100 of a 100 per 60 s limit through, whichever instance is asked", async () => {
    setPlan(100);
    const statuses: number[] = [];
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => lookup(servers[i % 2]!.url, round * 8 + i)));
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
    // Counted in the cluster, under the prefix, on the account's one slot.
    const observer = new Cluster([{ host: "127.0.0.1", port: cluster.ports[0]! }]);
    try {
      expect(await redisReady(observer)).toBe(true);
      const keys = (await Promise.all(observer.nodes("master").map((node) => node.keys("cluster-test:rl:100/60:*")))).flat();
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^cluster-test:rl:100\/60:\{[^}]+\}$/);
    } finally {
      observer.disconnect();
    }
  });

  it("a stopped master: every request answered from memory, /readyz degraded and logged once; back: shared again", async () => {
    setPlan(100_000); // a limit of its own: fresh counts
    await eventually(async () => expect((await lookup(servers[0]!.url)).status).toBe(200));
    await cluster.stop(1);
    try {
      for (const server of servers) {
        await eventually(async () => {
          const started = performance.now();
          expect((await lookup(server.url)).status).toBe(200);
          expect(performance.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
          expect((await call(server.url, "GET", "/readyz")).body).toMatchObject({ status: "degraded", detail: expect.stringMatching(/Redis is not answering/) });
        });
      }
    } finally {
      await cluster.start(1);
    }
    await cluster.whole();
    for (const server of servers) {
      await eventually(async () => {
        expect((await lookup(server.url)).status).toBe(200);
        expect((await call(server.url, "GET", "/readyz")).body).toEqual({ status: "ok" });
      });
      expect(server.stdout().match(/"msg":"redis (not )?answering/g)).toEqual(['"msg":"redis not answering', '"msg":"redis answering']);
    }
  });

  // Fails with the client's retries of CLUSTERDOWN or a closed connection (each refreshes the slots and may
  // wait on the silent node anew: 3.9 s seen) or without the probe a second (12 answers in 5 s).
  it("a master stopped with SIGSTOP (silent, its connections open): every request answered within the bound, most from memory", async () => {
    await cluster.whole();
    setPlan(200_000); // a limit of its own: fresh counts
    await eventually(async () => expect((await lookup(servers[0]!.url)).status).toBe(200));
    cluster.pause(2);
    const slowest: number[] = [];
    try {
      const until = performance.now() + 5_000;
      await Promise.all(
        servers.flatMap((server) => [0, 1].map(async () => {
          while (performance.now() < until) {
            const started = performance.now();
            expect((await lookup(server.url)).status).toBe(200);
            slowest.push(performance.now() - started);
          }
        })),
      );
    } finally {
      cluster.resume(2);
    }
    // Most answered from memory at once, while a command a second finds out whether Redis answers again.
    expect(slowest.length).toBeGreaterThan(40);
    expect(Math.max(...slowest)).toBeLessThan(ANSWER_WITHIN_MS);
    await cluster.whole();
    for (const server of servers) {
      await eventually(async () => {
        expect((await lookup(server.url)).status).toBe(200);
        expect((await call(server.url, "GET", "/readyz")).body).toEqual({ status: "ok" });
      });
    }
  });

  it("named as one Redis, a cluster node is refused at start; one Redis named as a cluster too", () => {
    const node = `redis://127.0.0.1:${cluster.ports[0]}`;
    const asOne = spawnSync(process.execPath, [SERVER_BIN, ...startArgs(node)], { encoding: "utf8", timeout: 30_000 });
    expect(asOne.status).toBe(1);
    expect(asOne.stderr).toMatch(/names a Redis Cluster node: start with --redis-cluster/);
    const single = process.env.ICCID_TEST_REDIS_URL!;
    const asCluster = spawnSync(process.execPath, [SERVER_BIN, ...startArgs(single, "--redis-cluster")], { encoding: "utf8", timeout: 30_000 });
    expect(asCluster.status).toBe(1);
    expect(asCluster.stderr).toMatch(/names a Redis without cluster support: leave out --redis-cluster/);
  });

  it("a cluster node answering MOVED after start: answered from memory, reported once, with what to do", async () => {
    const lines: Array<{ msg: string; reason?: string }> = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    // One node as a single Redis: the keys of the other masters' slots are answered MOVED.
    const node = new Redis({ host: "127.0.0.1", port: cluster.ports[0]! });
    try {
      expect(await redisReady(node)).toBe(true);
      const health = new RedisHealth(node, logger);
      const limiter = redisLimiters(node, "cluster-test", health)(5, 60, "moved");
      const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => limiter.consume(`account-${i}`).then((r) => r.remainingPoints)));
      expect(outcomes).toEqual(Array(30).fill(4));
      expect(health.answering).toBe(false);
      expect(lines.map((l) => l.msg)).toEqual(["redis not answering: rate limits are per instance until it answers"]);
      expect(lines[0]!.reason).toMatch(/^MOVED \d+ 127\.0\.0\.1:\d+ \(a Redis Cluster answers so: start with --redis-cluster\)$/);
    } finally {
      node.disconnect();
    }
  });
});
