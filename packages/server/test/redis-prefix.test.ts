import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killRedisServers, killServerProcesses, startRedisServer, startServerProcess, type RedisServer } from "../test-support/index.js";
import { call } from "./http.js";

// Two built servers (each on its own SQLite file, so each has an owner@localhost) sharing one Redis under
// different --redis-prefix / ICCID_REDIS_PREFIX values, next to another program's key that the fixed
// prefix would have read: none sees the others' counters.

let dir: string;
let redis: RedisServer;
let observer: Redis;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-prefix-"));
  redis = await startRedisServer();
  observer = new Redis(redis.url);
});
afterAll(() => {
  killServerProcesses();
  observer?.disconnect();
  killRedisServers();
  rmSync(dir, { recursive: true, force: true });
});

const wrongSignIn = (url: string) => call(url, "POST", "/api/v1/session", { body: { email: "owner@localhost", password: "not the password" } });

describe("the Redis key prefix", { timeout: 60_000 }, () => {
  it("keeps servers with different prefixes, and other programs, apart on one Redis", async () => {
    // Another program's key where the server's fixed prefix used to write: a used-up sign-in budget.
    await observer.set("iccid:login:email:owner@localhost", "999", "EX", 600);
    const a = await startServerProcess(join(dir, "a.db"), { args: ["--redis", redis.url, "--redis-prefix", "app-a"] });
    const b = await startServerProcess(join(dir, "b.db"), { args: ["--redis", redis.url], env: { ICCID_REDIS_PREFIX: "app-b:" } });
    expect(JSON.parse(a.stdout().split("\n").find((l) => l.includes('"listening"'))!).redis_prefix).toBe("app-a");

    // Server A uses up owner@localhost's sign-in budget (5 failures), then is refused.
    for (let i = 0; i < 5; i++) expect((await wrongSignIn(a.url)).status).toBe(401);
    expect((await wrongSignIn(a.url)).status).toBe(429);
    // Server B's budget for the same email is its own, and the other program's key counts for neither.
    expect((await wrongSignIn(b.url)).status).toBe(401);

    // The email's count is kept under the email and a fingerprint of the account's password (sessions.ts),
    // hash-tagged (redis-limiters.ts).
    const keys = (await observer.keys("*")).sort();
    const emailKey = (prefix: string) => keys.find((k) => k.startsWith(`${prefix}:login:email:{owner@localhost`));
    expect(emailKey("app-a")).toMatch(/^app-a:login:email:\{owner@localhost#[0-9a-f]{16}\}$/);
    expect(emailKey("app-b")).toMatch(/^app-b:login:email:\{owner@localhost#[0-9a-f]{16}\}$/);
    expect(keys.filter((k) => !k.startsWith("app-a:") && !k.startsWith("app-b:"))).toEqual(["iccid:login:email:owner@localhost"]);
    expect(await observer.get("iccid:login:email:owner@localhost")).toBe("999");
    expect(await observer.get(emailKey("app-a")!)).toBe("6");
    expect(await observer.get(emailKey("app-b")!)).toBe("1");
  });

  it("refuses a prefix with spaces, naming the setting", async () => {
    await expect(startServerProcess(join(dir, "c.db"), { args: ["--redis", redis.url, "--redis-prefix", "two words"] })).rejects.toThrow(
      /--redis-prefix: must be 1-100 letters/,
    );
  });
});
