import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  killRedisServers,
  killServerProcesses,
  SERVER_BIN,
  startRedisServer,
  startServerProcess,
  stopServerProcess,
  type TestDatabase,
} from "../../test-support/index.js";

// A setting the server cannot work with ends its start with the reason, before it serves: Redis refusing
// the credentials or not asking for the password given, something that is not Redis, PostgreSQL refusing the user. A Redis that keeps no
// append-only file is said at start; one that does is not.

const PG = process.env.ICCID_TEST_POSTGRES_URL!;
let database: TestDatabase;
let db: string;
let notRedis: Server;

beforeAll(async () => {
  database = await createTestDatabase(PG);
  db = Object.assign(new URL(PG), { pathname: `/${database.name}` }).toString();
  notRedis = createServer((_req, res) => res.end("hello"));
  notRedis.listen(0, "127.0.0.1");
  await once(notRedis, "listening");
});

afterAll(async () => {
  killServerProcesses();
  killRedisServers();
  notRedis?.close();
  await database?.drop();
});

/** Starts the built server and waits for it to end: its exit code and what it printed. */
async function startFails(dbUrl: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [SERVER_BIN, "start", "--port", "0", "--db", dbUrl, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const [code] = await once(child, "exit");
  clearTimeout(timer);
  return { code: code as number | null, output };
}

describe("a misconfiguration at start", { timeout: 60_000 }, () => {
  it("a Redis refusing the password, or asking for one: exit 1 with the reason, the password nowhere", async () => {
    const redis = await startRedisServer({ password: "the-right-one" });
    const wrong = await startFails(db, ["--redis", `redis://:guessed-wrong@127.0.0.1:${redis.port}`]);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toMatch(/^iccid-server: the Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ refused the credentials: WRONGPASS/m);
    expect(wrong.output).not.toContain("guessed-wrong");
    expect(wrong.output).not.toMatch(/"msg":"listening"/);
    const none = await startFails(db, ["--redis", `redis://127.0.0.1:${redis.port}`]);
    expect(none.code).toBe(1);
    expect(none.output).toMatch(/refused the credentials: NOAUTH/);
  });

  it("a password Redis does not ask for: exit 1 with the reason, no warning of the client's own, the password nowhere", async () => {
    const open = await startRedisServer();
    const r = await startFails(db, ["--redis", `redis://:thought-it-was-protected@127.0.0.1:${open.port}`]);
    expect(r.code).toBe(1);
    expect(r.output).toMatch(/^iccid-server: the Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ asks for no password, but --redis gives one/m);
    expect(r.output).not.toContain("[WARN]");
    expect(r.output).not.toContain("thought-it-was-protected");
  });

  it("something that is not Redis: exit 1, saying so", async () => {
    const { port } = notRedis.address() as AddressInfo;
    const r = await startFails(db, ["--redis", `redis://127.0.0.1:${port}`]);
    expect(r.code).toBe(1);
    expect(r.output).toMatch(new RegExp(`^iccid-server: redis://127\\.0\\.0\\.1:${port} does not answer as Redis does: is it Redis\\?$`, "m"));
  });

  it("PostgreSQL refusing the user: exit 1 with the reason, the password nowhere", async () => {
    const url = Object.assign(new URL(db), { username: "nobody-here", password: "pw-never-shown" }).toString();
    const r = await startFails(url, []);
    expect(r.code).toBe(1);
    expect(r.output).toMatch(/^iccid-server: PostgreSQL refused the credentials in --db \/ ICCID_DB \(role "nobody-here" does not exist\)/m);
    expect(r.output).not.toContain("pw-never-shown");
  });
});

describe("a Redis's persistence, said at start", { timeout: 60_000 }, () => {
  it.each([
    [false, 1],
    [true, 0],
  ])("appendonly %s: %i notice", async (appendonly, notices) => {
    const redis = await startRedisServer({ appendonly });
    const server = await startServerProcess(db, { args: ["--redis", redis.url, "--log-format", "json"] });
    await stopServerProcess(server);
    expect(server.stdout().match(/"msg":"redis keeps no append-only file[^"]*\(appendonly yes keeps them\)"/g) ?? []).toHaveLength(notices);
    await redis.stop();
  });
});
