import { luhnCheckDigit } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { IccidDecoder } from "../../src/decode/decoder.js";
import { listen, type RunningServer } from "../../src/http-server.js";
import { Accounts } from "../../src/services/accounts.js";
import { ApiKeys } from "../../src/services/api-keys.js";
import type { PgOptions } from "../../src/store/postgres/pg-options.js";
import { PgStore } from "../../src/store/postgres/pg-store.js";
import { systemClock } from "../../src/time.js";
import { createTestSchema, PgWireWatch, type SentStatement, type TestSchema } from "../../test-support/index.js";
import { call, sessionCookie } from "../http.js";

// What a transaction pooler would be asked to do, read off the wire between the store and PostgreSQL: with
// `pooler: "transaction"` no statement is named and no LISTEN goes through the pooled URL, whatever route
// runs (the LISTEN goes to the direct URL, or nowhere: grants are then polled). This needs no pooler binary:
// the pgbouncer test (pgbouncer.test.ts) shows the same store working behind a real one.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;
const { hostname, port } = new URL(PG);

let schema: TestSchema;
const opened: Array<{ store: PgStore; running: RunningServer; watches: PgWireWatch[] }> = [];
let elsewhere: PgStore;

const withCheck = (body: string) => body + luhnCheckDigit(body);
const password = "pooled-long-password";

/** A server on a store reached through a wire watch (and its direct URL through another), as `options` says. */
async function serve(options: PgOptions & { direct?: boolean }): Promise<{ url: string; pooled: PgWireWatch; direct: PgWireWatch }> {
  const [pooled, direct] = await Promise.all([PgWireWatch.start(hostname, Number(port || 5432)), PgWireWatch.start(hostname, Number(port || 5432))]);
  const { direct: useDirect, ...rest } = options;
  const store = new PgStore(pooled.url(PG), { schema: schema.name, ...rest, ...(useDirect ? { directUrl: direct.url(PG) } : {}) });
  await store.migrate();
  const running = await listen(createApp({ store, decoder: new IccidDecoder() }), { host: "127.0.0.1", port: 0, store });
  opened.push({ store, running, watches: [pooled, direct] });
  return { url: running.url, pooled, direct };
}

/** Every route that touches the store, as a user does: sign-in, keys, lookups, usage, audit, sign-out. */
async function useEveryRoute(url: string, email: string): Promise<void> {
  const signedIn = await call(url, "POST", "/api/v1/session", { body: { email, password } });
  expect(signedIn.status).toBe(201);
  const cookie = sessionCookie(signedIn);
  expect((await call(url, "GET", "/api/v1/session", { cookie })).status).toBe(200);
  const created = await call(url, "POST", "/api/v1/keys", { cookie, body: { name: "wire" } });
  expect(created.status).toBe(201);
  expect((await call(url, "GET", "/api/v1/keys", { cookie })).status).toBe(200);
  const key = created.body.key as string;
  const lookups = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: withCheck(`8944100000${String(i).padStart(8, "0")}`) } })),
  );
  expect(lookups.map((a) => a.status)).toEqual(lookups.map(() => 200));
  const batch = await call(url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: ["89441000000000000018", "89441000000000000026"] } });
  expect(batch.status).toBe(200);
  expect((await call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" }, headers: { "idempotency-key": "wire-1" } })).status).toBe(200);
  expect((await call(url, "GET", "/api/v1/usage", { key })).body.totals).toEqual({ requests: 22, lookups: 23 });
  expect((await call(url, "GET", "/api/v1/account/usage", { cookie })).status).toBe(200);
  const rolled = await call(url, "POST", `/api/v1/keys/${created.body.id}/roll`, { cookie, body: { grace_seconds: 0 } });
  expect(rolled.status).toBe(201);
  expect((await call(url, "DELETE", `/api/v1/keys/${rolled.body.id}`, { cookie })).status).toBe(204);
  expect((await call(url, "GET", "/api/v1/audit", { cookie })).status).toBe(200);
  expect((await call(url, "GET", "/readyz")).status).toBe(200);
  expect((await call(url, "DELETE", "/api/v1/session", { cookie })).status).toBe(204);
}

const named = (statements: SentStatement[]) => statements.filter((s) => s.kind === "parse" && s.name !== "");
const listens = (statements: SentStatement[]) => statements.filter((s) => /^\s*LISTEN\b/i.test(s.text));

beforeAll(async () => {
  schema = await createTestSchema(PG);
  elsewhere = new PgStore(PG, { schema: schema.name });
  await elsewhere.migrate();
  await elsewhere.upsertPlan({ name: "standard", rate_limit: 10_000, window_seconds: 60, monthly_lookups: 1_000_000 });
  for (const email of ["direct@example.test", "polled@example.test", "session@example.test"]) {
    await new Accounts(elsewhere, systemClock).create({ email, password, plan: "standard" });
  }
});

afterAll(async () => {
  for (const { running, watches } of opened) {
    await running.close();
    for (const watch of watches) await watch.close();
  }
  await elsewhere?.close();
  await schema?.drop();
});

/** A key of `email`'s, used on `url` until its grant is cached, then revoked by another process's store. */
async function revokedElsewhere(url: string, email: string): Promise<{ key: string; revokedAt: number }> {
  const account = await new Accounts(elsewhere, systemClock).byEmail(email);
  const created = await new ApiKeys(elsewhere, systemClock).create(account.id, "revoked elsewhere");
  for (let i = 0; i < 3; i++) expect((await call(url, "POST", "/api/v1/iccid/lookup", { key: created.key, body: { iccid: "89441000000000000018" } })).status).toBe(200);
  await new ApiKeys(elsewhere, systemClock).revoke(account.id, created.id);
  return { key: created.key, revokedAt: performance.now() };
}

describe("the store behind a declared transaction pooler", () => {
  it("names no statement and LISTENs only on the direct URL", async () => {
    const { url, pooled, direct } = await serve({ pooler: "transaction", direct: true });
    await useEveryRoute(url, "direct@example.test");
    expect(pooled.statements.length).toBeGreaterThan(50);
    expect(pooled.statements.some((s) => s.text.includes("commit_charges("))).toBe(true);
    expect(named(pooled.statements)).toEqual([]);
    expect(listens(pooled.statements)).toEqual([]);
    expect(listens(direct.statements)).toHaveLength(1);
    // The direct URL carries the start checks and the listening connection, no store work.
    for (const s of direct.statements) expect(s.text).toMatch(/LISTEN|current_schema|pg_backend_pid|current_database|^BEGIN$|^ROLLBACK$/);

    // A revocation made elsewhere is heard at once.
    const { key } = await revokedElsewhere(url, "direct@example.test");
    await expect
      .poll(async () => (await call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } })).body?.code, { timeout: 500, interval: 20 })
      .toBe("revoked_api_key");
  });

  it("without a direct URL polls: LISTENs nowhere, and a revocation made elsewhere is refused for every request sent 1 s after", async () => {
    const { url, pooled, direct } = await serve({ pooler: "transaction" });
    await useEveryRoute(url, "polled@example.test");
    expect(named(pooled.statements)).toEqual([]);
    expect(listens(pooled.statements)).toEqual([]);
    expect(direct.statements).toEqual([]);

    const { key, revokedAt } = await revokedElsewhere(url, "polled@example.test");
    const late: Array<string | undefined> = [];
    while (late.length < 5) {
      const sentAfter = performance.now() - revokedAt;
      const code = (await call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } })).body?.code;
      if (sentAfter >= 1_000) late.push(code);
    }
    expect(late).toEqual(late.map(() => "revoked_api_key"));
  });

  it("while undeclared, names its statements and LISTENs on the pool's URL (what a transaction pooler breaks)", async () => {
    const { url, pooled } = await serve({});
    await useEveryRoute(url, "session@example.test");
    expect(named(pooled.statements).length).toBeGreaterThan(10);
    expect(pooled.statements.some((s) => s.name === "COMMIT_charges")).toBe(true);
    expect(listens(pooled.statements)).toHaveLength(1);
  });
});
