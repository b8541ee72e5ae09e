import { spawn } from "node:child_process";
import { once } from "node:events";
import { luhnCheckDigit } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  killPgBouncers,
  killServerProcesses,
  SERVER_BIN,
  startPgBouncer,
  startServerProcess,
  stopServerProcess,
  type PgBouncer,
  type ServerProcess,
  type TestDatabase,
} from "../../test-support/index.js";
import { call, sessionCookie, type Answer } from "../http.js";
import { useTestRedis } from "./test-redis.js";

// Two built servers behind a real PgBouncer in transaction mode (Debian's 1.18, started here on a port of
// its own before the test PostgreSQL), one listening for grant changes on a direct URL, one polling; the
// operator commands through it too. On main a second instance exited with 42P05, and sign-ins, key calls
// and a share of lookups answered 500.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;
const redis = useTestRedis();
const POOLED = ["--pg-pooler", "transaction"];

let db: TestDatabase;
let bouncer: PgBouncer;
let pooled: string;
let direct: string;
let servers: ServerProcess[] = [];
const password = "through-the-pooler";

const withCheck = (body: string) => body + luhnCheckDigit(body);
const lookup = (url: string, key: string, i = 0) => call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: withCheck(`8944100000${String(i % 1e8).padStart(8, "0")}`) } });

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `iccid-server ARGS --db DB` (without the test's own ICCID_PG_* settings): its exit status and output. */
async function operator(args: string[], db: string, input = ""): Promise<Run> {
  const child = spawn(process.execPath, [SERVER_BIN, ...args, "--db", db], { env: { ...process.env, ICCID_PG_POOLER: undefined, ICCID_PG_DIRECT_URL: undefined } });
  const run: Run = { status: null, stdout: "", stderr: "" };
  child.stdout.on("data", (d) => (run.stdout += d));
  child.stderr.on("data", (d) => (run.stderr += d));
  child.stdin.end(input);
  [run.status] = await once(child, "close");
  return run;
}

async function createAccount(email: string): Promise<void> {
  const r = await operator(["account", "create", "--email", email, "--password-stdin", ...POOLED], pooled, `${password}\n`);
  expect([r.status, r.stderr]).toEqual([0, ""]);
}

beforeAll(async () => {
  db = await createTestDatabase(PG);
  const url = new URL(PG);
  url.pathname = `/${db.name}`;
  direct = url.href;
  bouncer = await startPgBouncer(PG, { mode: "transaction", poolSize: 6 });
  pooled = bouncer.url(direct);
  const plan = await operator(["plan", "set", "standard", "--rate-limit", "1000000", "--window", "60", "--monthly-lookups", "100000000", ...POOLED], pooled);
  expect(plan.status, plan.stderr).toBe(0);
  await Promise.all(["load@example.test", "routes0@example.test", "routes1@example.test", "revoker@example.test"].map(createAccount));
  const shared = ["--redis", process.env.ICCID_TEST_REDIS_URL!, "--redis-prefix", redis.namespace];
  // Started together, as a deployment does: both migrate and bootstrap through the pooler at once.
  servers = await Promise.all([
    startServerProcess(pooled, { args: [...POOLED, "--pg-direct-url", direct, ...shared] }),
    startServerProcess(pooled, { args: [...POOLED, ...shared] }),
  ]);
});

afterAll(async () => {
  for (const server of servers) await stopServerProcess(server);
  killServerProcesses();
  await bouncer?.stop();
  killPgBouncers();
  await db?.drop();
});

async function signIn(url: string, email: string): Promise<string> {
  const answer = await call(url, "POST", "/api/v1/session", { body: { email, password } });
  expect(answer.status).toBe(201);
  return sessionCookie(answer);
}

describe("behind PgBouncer in transaction mode", () => {
  it("refuses to start when the pooler is not declared, or a direct URL is not direct, saying why", async () => {
    await expect(startServerProcess(pooled)).rejects.toThrow(/through a pooler in transaction mode .*--pg-pooler transaction/);
    const [undeclared, pooledDirect, otherDatabase, sqlite] = await Promise.all([
      operator(["plan", "list"], pooled),
      operator(["plan", "list", ...POOLED, "--pg-direct-url", pooled], pooled),
      operator(["plan", "list", ...POOLED, "--pg-direct-url", PG], pooled),
      operator(["plan", "list", ...POOLED], "/nonexistent/iccid.db"),
    ]);
    expect([undeclared.status, undeclared.stdout]).toEqual([1, ""]);
    expect(undeclared.stderr).toMatch(/^iccid-server: PostgreSQL is reached through a pooler in transaction mode/);
    expect(pooledDirect.status).toBe(1);
    expect(pooledDirect.stderr).toMatch(/--pg-direct-url goes through a pooler in transaction mode/);
    expect(otherDatabase.status).toBe(1);
    expect(otherDatabase.stderr).toMatch(/--pg-direct-url reaches database .*, --db reaches database .*: both must name the same database/);
    expect(sqlite.status).toBe(2);
    expect(sqlite.stderr).toMatch(/--pg-pooler: only with a postgres:\/\/ --db/);
  });

  it("runs the operator commands, every time, five at once", async () => {
    const emails = Array.from({ length: 5 }, (_, i) => `operator${i}@example.test`);
    const plans = await Promise.all(emails.map(() => operator(["plan", "list", ...POOLED], pooled)));
    for (const run of plans) {
      expect([run.status, run.stderr]).toEqual([0, ""]);
      expect(run.stdout).toMatch(/^standard\t1000000\t60\t100000000$/m);
    }
    await Promise.all(emails.map(createAccount));
    const listed = await operator(["account", "list", ...POOLED, "--pg-direct-url", direct], pooled);
    expect([listed.status, listed.stderr]).toEqual([0, ""]);
    for (const email of emails) expect(listed.stdout).toContain(email);
  });

  it("answers every route on both instances", async () => {
    for (const [n, { url }] of servers.entries()) {
      const cookie = await signIn(url, `routes${n}@example.test`);
      expect((await call(url, "GET", "/api/v1/session", { cookie })).status).toBe(200);
      const created = await call(url, "POST", "/api/v1/keys", { cookie, body: { name: "routes" } });
      expect(created.status).toBe(201);
      const key = created.body.key as string;
      expect((await call(url, "GET", "/api/v1/keys", { cookie })).body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);
      expect((await lookup(url, key)).status).toBe(200);
      expect((await call(url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: ["89441000000000000018", "89441000000000000026"] } })).status).toBe(200);
      expect((await call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" }, headers: { "idempotency-key": `routes-${url}` } })).status).toBe(200);
      expect((await call(url, "GET", "/api/v1/usage", { key })).body.totals).toEqual({ requests: 3, lookups: 4 });
      expect((await call(url, "POST", "/api/v1/eid/lookup", { key, body: { eid: "89049032123451234512345678901235" } })).status).toBe(200);
      expect((await call(url, "GET", "/api/v1/account/usage", { cookie })).status).toBe(200);
      const rolled = await call(url, "POST", `/api/v1/keys/${created.body.id}/roll`, { cookie, body: { grace_seconds: 0 } });
      expect(rolled.status).toBe(201);
      expect((await call(url, "DELETE", `/api/v1/keys/${rolled.body.id}`, { cookie })).status).toBe(204);
      const audit = await call(url, "GET", "/api/v1/audit", { cookie });
      expect(audit.status).toBe(200);
      expect(audit.body.events.map((e: { action: string }) => e.action)).toContain("key.revoked");
      for (const path of ["/healthz", "/readyz", "/api/v1/openapi.json", "/account", "/docs/errors"]) expect([path, (await call(url, "GET", path)).status]).toEqual([path, 200]);
      expect((await call(url, "DELETE", "/api/v1/session", { cookie })).status).toBe(204);
      expect((await call(url, "GET", "/api/v1/session", { cookie })).status).toBe(401);
    }
  });

  it("answers 20,000 lookups from 8 clients with sign-ins and key calls alongside: nothing ≥ 500, answered = metered", { timeout: 300_000 }, async () => {
    const setup = await signIn(servers[0]!.url, "load@example.test");
    const key = (await call(servers[1]!.url, "POST", "/api/v1/keys", { cookie: setup, body: { name: "load" } })).body.key as string;
    const TOTAL = 20_000;
    let next = 0;
    const answered: number[] = [];
    const alongside: Array<[string, number]> = [];
    const client = async (c: number) => {
      for (let i = next++; i < TOTAL; i = next++) answered.push((await lookup(servers[(i + c) % 2]!.url, key, i)).status);
    };
    const accountCalls = async () => {
      for (let round = 0; next < TOTAL; round++) {
        const url = servers[round % 2]!.url;
        const signedIn = await call(url, "POST", "/api/v1/session", { body: { email: "load@example.test", password } });
        alongside.push(["sign-in", signedIn.status]);
        if (signedIn.status !== 201) continue;
        const cookie = sessionCookie(signedIn);
        const other = servers[(round + 1) % 2]!.url;
        const made = await call(other, "POST", "/api/v1/keys", { cookie, body: { name: `alongside ${round}` } });
        alongside.push(["key create", made.status]);
        const steps: Array<[string, Promise<Answer>]> = [
          ["key list", call(url, "GET", "/api/v1/keys", { cookie })],
          ["audit", call(other, "GET", "/api/v1/audit", { cookie })],
        ];
        for (const [what, answer] of steps) alongside.push([what, (await answer).status]);
        if (made.status === 201) alongside.push(["key revoke", (await call(url, "DELETE", `/api/v1/keys/${made.body.id}`, { cookie })).status]);
        alongside.push(["sign-out", (await call(other, "DELETE", "/api/v1/session", { cookie })).status]);
      }
    };
    await Promise.all([...Array.from({ length: 8 }, (_, c) => client(c)), accountCalls()]);

    const statuses = new Map<number, number>();
    for (const status of answered) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 200: TOTAL });
    expect(alongside.length).toBeGreaterThan(20);
    expect(alongside.filter(([, status]) => status >= 300)).toEqual([]);
    for (const { url } of servers) {
      const usage = await call(url, "GET", "/api/v1/usage", { key });
      expect(usage.body.totals).toEqual({ requests: TOTAL, lookups: TOTAL });
    }
  });

  it("refuses a key revoked on the other instance: at once where it listens, for every request sent 1 s after where it polls", async () => {
    const [listening, polling] = servers as [ServerProcess, ServerProcess];
    const cookie = await signIn(listening.url, "revoker@example.test");
    const revokeOn = async (revoking: ServerProcess, refusing: ServerProcess) => {
      const made = (await call(revoking.url, "POST", "/api/v1/keys", { cookie, body: { name: "to revoke" } })).body;
      for (let i = 0; i < 3; i++) expect((await lookup(refusing.url, made.key, i)).status).toBe(200);
      expect((await call(revoking.url, "DELETE", `/api/v1/keys/${made.id}`, { cookie })).status).toBe(204);
      return { key: made.key as string, at: performance.now() };
    };
    const heard = await revokeOn(polling, listening);
    await expect.poll(async () => (await lookup(listening.url, heard.key)).body?.code, { timeout: 500, interval: 20 }).toBe("revoked_api_key");

    const polled = await revokeOn(listening, polling);
    const late: Array<string | undefined> = [];
    while (late.length < 5) {
      const sentAfter = performance.now() - polled.at;
      const code = (await lookup(polling.url, polled.key)).body?.code;
      if (sentAfter >= 1_000) late.push(code);
    }
    expect(late).toEqual(late.map(() => "revoked_api_key"));
  });
});
