import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Accounts } from "../src/services/accounts.js";
import { startTestServer, type TestAccount, type TestServer } from "../test-support/index.js";
import type { Clock } from "../src/time.js";
import { call, sessionCookie } from "./http.js";

// The audit trail against a real server (SQLite here, PostgreSQL + Redis in server-postgres).
let server: TestServer;
let now = Date.parse("2026-11-21T04:00:00Z");
const clock: Clock = { now: () => now };
const DAY = 86_400_000;
const UA = "audit-test/1.0 (integration)";

beforeAll(async () => {
  server = await startTestServer({ clock, settings: { auditRetentionDays: 30 } });
});
afterAll(async () => server?.close());

const signIn = async (user: TestAccount) =>
  sessionCookie(await call(server.url, "POST", "/api/v1/session", { body: { email: user.email, password: user.password }, headers: { "user-agent": UA } }));
const audit = (cookie: string, query = "") => call(server.url, "GET", `/api/v1/audit${query}`, { cookie });

describe("GET /api/v1/audit", () => {
  it("records sign-ins, failures, key changes and sign-outs, newest first, with actor, address, User-Agent and target; never a secret", async () => {
    const user = await server.createAccount();
    now += 1_000;
    const failed = await call(server.url, "POST", "/api/v1/session", { body: { email: user.email, password: "wrong-password-1" }, headers: { "user-agent": UA } });
    expect(failed.status).toBe(401);
    now += 1_000;
    const signInAnswer = await call(server.url, "POST", "/api/v1/session", { body: { email: user.email, password: user.password }, headers: { "user-agent": UA } });
    const cookie = sessionCookie(signInAnswer);
    const headers = { "user-agent": UA };
    now += 1_000;
    const created = (await call(server.url, "POST", "/api/v1/keys", { cookie, headers, body: { name: "audited" } })).body;
    now += 1_000;
    const rolled = (await call(server.url, "POST", `/api/v1/keys/${created.id}/roll`, { cookie, headers, body: { grace_seconds: 60 } })).body;
    now += 1_000;
    expect((await call(server.url, "DELETE", `/api/v1/keys/${rolled.id}`, { cookie, headers })).status).toBe(204);
    // Revoking again changes nothing and records nothing.
    expect((await call(server.url, "DELETE", `/api/v1/keys/${rolled.id}`, { cookie, headers })).status).toBe(204);
    now += 1_000;
    expect((await call(server.url, "DELETE", "/api/v1/session", { cookie, headers })).status).toBe(204);

    now += 1_000;
    const reader = await signIn(user);
    const page = await audit(reader);
    expect(page.status).toBe(200);
    const events = page.body.events as Array<Record<string, any>>;
    expect(events.map((e) => e.action)).toEqual([
      "session.created",
      "session.ended", // one key.revoked: the second revocation changed nothing
      "key.revoked",
      "key.rolled",
      "key.created",
      "session.created",
      "session.failed",
      "key.created", // the test helper's key, made by the server itself
      "account.created", // the test helper's account, likewise
    ]);
    expect(page.body.next_cursor).toBeNull();
    const [, ended, revoked, rolledEvent, createdEvent, signedIn, failure, helperKey] = events;
    const sessionActor = signedIn!.actor;
    expect(sessionActor).toEqual({ type: "session", id: expect.stringMatching(/^ses_[0-9a-f]{20}$/) });
    for (const e of [ended, revoked, rolledEvent, createdEvent]) expect(e!.actor).toEqual(sessionActor);
    for (const e of [ended, revoked, rolledEvent, createdEvent, signedIn, failure]) {
      expect(e).toMatchObject({ ip: "127.0.0.1", user_agent: UA, id: expect.stringMatching(/^evt_/) });
    }
    expect(failure).toMatchObject({ actor: { type: "session" }, at: "2026-11-21T04:00:01Z" });
    expect(failure!.actor).not.toHaveProperty("id");
    expect(createdEvent!.target).toBe(created.id);
    expect(rolledEvent!.target).toBe(created.id);
    expect(revoked!.target).toBe(rolled.id);
    expect(signedIn).not.toHaveProperty("target");
    expect(helperKey).toMatchObject({ actor: { type: "system" }, ip: null, user_agent: null, target: user.keyId });

    // Nothing secret: no password (right or wrong), no key value, no cookie secret.
    const cookieSecret = cookie.split("=")[1]!;
    for (const secret of [user.password, "wrong-password-1", created.key, rolled.key, user.apiKey, cookieSecret]) expect(page.text).not.toContain(secret);
  });

  it("pages with limit and an opaque cursor, without gaps or repeats; 422 naming limit or cursor when bad", async () => {
    const user = await server.createAccount();
    const cookie = await signIn(user);
    // Eight keys at the same instant: the trail keeps them in the order they were made, newest first.
    const made: string[] = [];
    for (let i = 0; i < 8; i++) made.push((await call(server.url, "POST", "/api/v1/keys", { cookie, body: { name: `k${i}` } })).body.id);
    const events = (await audit(cookie, "?limit=100")).body.events as Array<{ id: string; action: string; target?: string }>;
    expect(events.filter((e) => e.action === "key.created").map((e) => e.target)).toEqual([...made.reverse(), expect.stringMatching(/^key_/)]);
    expect(events.slice(-2).map((e) => e.action)).toEqual(["key.created", "account.created"]); // the test helper's, also at one instant
    const all = events.map((e) => e.id);
    expect(all).toHaveLength(11);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { events: Array<{ id: string }>; next_cursor: string | null } = (await audit(cookie, `?limit=4${cursor ? `&cursor=${cursor}` : ""}`)).body;
      expect(page.events.length).toBeLessThanOrEqual(4);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect((await audit(cookie)).body.events).toHaveLength(11); // default 50

    for (const [query, pointer] of [
      ["?limit=0", "/limit"],
      ["?limit=101", "/limit"],
      ["?limit=ten", "/limit"],
      ["?cursor=not%20a%20cursor", "/cursor"],
      [`?cursor=${Buffer.from("1.acc_x").toString("base64url")}`, "/cursor"],
    ]) {
      const r = await audit(cookie, query);
      expect(r.status, query).toBe(422);
      expect(r.body.errors[0].pointer).toBe(pointer);
    }
  });

  it("shows an account only its own events, and needs a session", async () => {
    const a = await server.createAccount();
    const b = await server.createAccount();
    const cookieA = await signIn(a);
    const created = (await call(server.url, "POST", "/api/v1/keys", { cookie: cookieA, body: {} })).body;
    const seenByB = (await audit(await signIn(b))).body.events;
    expect(seenByB.map((e: { target?: string }) => e.target)).not.toContain(created.id);
    expect(seenByB.every((e: { target?: string }) => e.target === undefined || e.target === b.keyId)).toBe(true);
    const anonymous = await call(server.url, "GET", "/api/v1/audit");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("not_authenticated");
  });

  it("records operator changes as the operator's, and deletes events older than the retention", async () => {
    const user = await server.createAccount();
    const accounts = new Accounts(server.store, clock);
    const operator = { actor: { type: "operator" as const, id: "ops" }, ip: null, userAgent: null };
    now += 1_000;
    await accounts.setStatus(user.email, "past_due", operator);
    now += 1_000;
    await accounts.changePlan(user.email, "standard", operator);
    now += 1_000;
    await accounts.resetPassword(user.email, "a-new-long-password", operator);
    now += 1_000;
    user.password = "a-new-long-password";
    const cookie = await signIn(user);
    const events = (await audit(cookie)).body.events;
    expect(events.slice(1, 4).map((e: { action: string; actor: unknown }) => [e.action, e.actor])).toEqual([
      ["password.changed", { type: "operator", id: "ops" }],
      ["plan.changed", { type: "operator", id: "ops" }],
      ["subscription.changed", { type: "operator", id: "ops" }],
    ]);

    // 31 days on, the next event sweeps those past the 30-day retention away (this server's setting).
    now += 31 * DAY;
    const later = await signIn(user);
    const after = (await audit(later)).body.events;
    expect(after.map((e: { action: string }) => e.action)).toEqual(["session.created"]);
  });
});
