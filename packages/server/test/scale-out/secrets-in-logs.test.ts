import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  killRedisServers,
  killServerProcesses,
  startRedisServer,
  startServerProcess,
  stopServerProcess,
  type RedisServer,
  type TestDatabase,
} from "../../test-support/index.js";
import { call } from "../http.js";

// The built server given a PostgreSQL URL and a Redis URL that both carry a password (the Redis one a
// Redis that requires it): nothing it logs or prints, from start to stop, holds either password.

const PG = process.env.ICCID_TEST_POSTGRES_URL!;
const PG_PASSWORD = "S3cretPgPw";
const REDIS_PASSWORD = "R3disPw-not-for-logs";

let database: TestDatabase;
let redis: RedisServer;

beforeAll(async () => {
  database = await createTestDatabase(PG);
  redis = await startRedisServer({ password: REDIS_PASSWORD });
});

afterAll(async () => {
  killServerProcesses();
  killRedisServers();
  await database?.drop();
});

describe("passwords in the database and Redis URLs", { timeout: 60_000 }, () => {
  it("are never in the server's logs or terminal output", async () => {
    const db = Object.assign(new URL(PG), { username: "postgres", password: PG_PASSWORD, pathname: `/${database.name}` }).toString();
    const server = await startServerProcess(db, { args: ["--redis", redis.url, "--log-level", "debug", "--log-format", "json"] });
    expect(redis.url).toContain(REDIS_PASSWORD);
    expect((await call(server.url, "GET", "/readyz")).status).toBe(200); // Redis took the password: limits are shared
    expect(await stopServerProcess(server)).toBe(0);

    const output = server.stdout() + server.stderr();
    expect(output).not.toContain(PG_PASSWORD);
    expect(output).not.toContain(REDIS_PASSWORD);
    // Still said which database and which Redis, with the password replaced.
    const listening = server.stdout().split("\n").find((line) => line.includes('"msg":"listening"'))!;
    expect(JSON.parse(listening)).toMatchObject({
      db: `postgres://postgres:***@127.0.0.1:${new URL(PG).port || 5432}/${database.name}`,
      redis: `redis://:***@127.0.0.1:${redis.port}`,
    });
    expect(server.stderr()).toContain(`(database postgres://postgres:***@`);
  });
});
