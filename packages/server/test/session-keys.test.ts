import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestAccount, type TestServer } from "../test-support/index.js";
import type { Clock } from "../src/time.js";
import { call, sessionCookie } from "./http.js";
import { hashPassword } from "../src/auth/passwords.js";

let server: TestServer;
let user: TestAccount;
let now = Date.parse("2026-11-21T04:00:00Z");
const clock: Clock = { now: () => now };

beforeAll(async () => {
  server = await startTestServer({ clock, settings: { loginAttemptsPerEmail: 3 } });
  user = await server.createAccount();
});
afterAll(async () => server?.close());

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  call(server.url, "POST", "/api/v1/session", { body: { email, password }, headers });

describe("sessions", () => {
  it("signs in with a cookie carrying its flags, reads and ends the session", async () => {
    const r = await login(user.email.toUpperCase(), user.password);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ account: { id: user.id, email: user.email }, created_at: "2026-11-21T04:00:00Z" });
    const setCookie = r.headers["set-cookie"]!;
    expect(setCookie).toMatch(/^iccid_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/; path=\//);
    expect(setCookie).toMatch(/; samesite=lax/);
    expect(setCookie).toMatch(/; httponly/);
    expect(setCookie).not.toMatch(/; secure/);
    const cookie = sessionCookie(r);

    const current = await call(server.url, "GET", "/api/v1/session", { cookie });
    expect(current.status).toBe(200);
    expect(current.body.account.email).toBe(user.email);

    const out = await call(server.url, "DELETE", "/api/v1/session", { cookie });
    expect(out.status).toBe(204);
    expect(out.headers["set-cookie"]).toMatch(/iccid_session=;.*expires=Thu, 01 Jan 1970/);
    const after = await call(server.url, "GET", "/api/v1/session", { cookie });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("not_authenticated");
  });

  it("401 not_authenticated without a session or with a made-up one", async () => {
    for (const cookie of [undefined, "iccid_session=forged", `iccid_session=${"x".repeat(500)}`]) {
      const r = await call(server.url, "GET", "/api/v1/keys", cookie === undefined ? {} : { cookie });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("not_authenticated");
    }
  });

  it("expires sessions after idling and at the absolute limit, sliding in between", async () => {
    const cookie = sessionCookie(await login(user.email, user.password));
    now += 11 * 3_600_000;
    expect((await call(server.url, "GET", "/api/v1/session", { cookie })).status).toBe(200); // slides
    now += 11 * 3_600_000;
    expect((await call(server.url, "GET", "/api/v1/session", { cookie })).status).toBe(200);
    now += 13 * 3_600_000;
    expect((await call(server.url, "GET", "/api/v1/session", { cookie })).status).toBe(401);

    const started = now;
    const active = sessionCookie(await login(user.email, user.password));
    const statuses: Array<[number, number]> = [];
    for (let i = 0; i < 16; i++) {
      now += 11 * 3_600_000; // always inside the 12 h idle window
      statuses.push([(now - started) / 3_600_000, (await call(server.url, "GET", "/api/v1/session", { cookie: active })).status]);
    }
    // Alive at every step before 7 days (168 h), refused from the first step past it.
    expect(statuses.filter(([hours]) => hours < 168).every(([, status]) => status === 200)).toBe(true);
    expect(statuses.filter(([hours]) => hours >= 168).every(([, status]) => status === 401)).toBe(true);
    expect(statuses.some(([hours]) => hours >= 168)).toBe(true);
  });

  it("marks the cookie Secure when a trusted proxy says the request was HTTPS", async () => {
    const proxied = await startTestServer({ settings: { trustProxy: true } });
    try {
      const owner = proxied.owner;
      const r = await call(proxied.url, "POST", "/api/v1/session", {
        body: { email: owner.email, password: owner.password },
        headers: { "x-forwarded-proto": "https" },
      });
      expect(r.status).toBe(201);
      expect(r.headers["set-cookie"]).toMatch(/; secure/);
    } finally {
      await proxied.close();
    }
  });

  it("401 invalid_credentials alike for a wrong password and an unknown email", async () => {
    const wrong = await login(user.email, "not-the-password");
    const unknown = await login("nobody@example.test", "whatever-password");
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("invalid_credentials");
      expect(r.body.detail).toBe(wrong.body.detail);
    }
  });

  it("throttles failed logins per email with 429 rate_limited", async () => {
    const victim = await server.createAccount();
    for (let i = 0; i < 3; i++) expect((await login(victim.email, `wrong-${i}`)).status).toBe(401);
    const blocked = await login(victim.email, victim.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe("rate_limited");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
  });

  describe("what failed sign-ins write on the account's trail", () => {
    let own: TestServer;
    beforeAll(async () => {
      own = await startTestServer({ clock, settings: { loginAttemptsPerEmail: 3, loginAttemptsPerIp: 1000, loginEventsPerDay: 8 } });
    });
    afterAll(async () => own?.close());
    const attempt = (email: string, password: string) =>
      call(own.url, "POST", "/api/v1/session", { body: { email, password }, headers: { "user-agent": "guesser/1" } });
    const trail = async (accountId: string) =>
      (await own.store.auditEvents({ accountId, limit: 1000 })).filter((e) => e.action.startsWith("session."));

    it("each wrong password, and a throttled window once with its attempts; nothing for unknown emails", async () => {
      const victim = await own.createAccount();
      for (let i = 0; i < 3; i++) expect((await attempt(victim.email, `wrong-${i}`)).status).toBe(401);
      for (let i = 0; i < 200; i++) expect((await attempt(victim.email, i === 199 ? victim.password : `wrong-${i}`)).status).toBe(429);
      const before = await own.store.auditEvents({ limit: 1000 });
      for (let i = 0; i < 5; i++) expect([401, 429]).toContain((await attempt("nobody-here@example.test", `guess-${i}`)).status);
      expect(await own.store.auditEvents({ limit: 1000 })).toEqual(before);
      const events = await trail(victim.id);
      expect(events.map((e) => [e.action, e.attempts])).toEqual([["session.throttled", 4], ["session.failed", null], ["session.failed", null], ["session.failed", null]]);
      for (const e of events) expect(e).toMatchObject({ actor_type: "session", actor_id: null, ip: "127.0.0.1", user_agent: "guesser/1", target: null });
    });

    it("nothing for an attempt only the client's own budget refused", async () => {
      const strict = await startTestServer({ clock, settings: { loginAttemptsPerEmail: 3, loginAttemptsPerIp: 2, loginEventsPerDay: 8 } });
      try {
        const victims = [await strict.createAccount(), await strict.createAccount(), await strict.createAccount()];
        const statuses = [];
        for (const victim of victims) statuses.push((await call(strict.url, "POST", "/api/v1/session", { body: { email: victim.email, password: "wrong" } })).status);
        expect(statuses).toEqual([401, 401, 429]);
        const events = await strict.store.auditEvents({ accountId: victims[2]!.id, limit: 10 });
        expect(events.filter((e) => e.action.startsWith("session."))).toEqual([]);
      } finally {
        await strict.close();
      }
    });

    it("at most loginEventsPerDay failed sign-ins an account a day", async () => {
      const victim = await own.createAccount();
      for (let round = 0; round < 3; round++) {
        // A new password starts a new throttle count (the operator's reset), not a new day.
        await own.store.setPasswordHash(victim.id, await hashPassword(`new-password-${round}`));
        for (let i = 0; i < 3; i++) expect((await attempt(victim.email, `wrong-${i}`)).status).toBe(401);
        expect((await attempt(victim.email, "wrong")).status).toBe(429);
      }
      // Newest first: the first two rounds fill the day's 8; the third writes nothing.
      const round = ["session.throttled", "session.failed", "session.failed", "session.failed"];
      expect((await trail(victim.id)).map((e) => e.action)).toEqual([...round, ...round]);
    });
  });

  it("422 invalid_input names the field of a bad login body", async () => {
    const r = await call(server.url, "POST", "/api/v1/session", { body: { email: "not-an-email", password: "x" } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].pointer).toBe("/email");
  });
});

describe("CSRF rule on state-changing session requests", () => {
  it.each([
    [{ origin: "https://evil.example" }],
    [{ "sec-fetch-site": "cross-site" }],
    [{ "sec-fetch-site": "same-site" }],
  ])("403 csrf_rejected with %j", async (headers) => {
    const r = await login(user.email, user.password, headers);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("csrf_rejected");
    const cookie = sessionCookie(await login(user.email, user.password));
    for (const [method, path] of [["POST", "/api/v1/keys"], ["DELETE", "/api/v1/keys/key_x"], ["DELETE", "/api/v1/session"]] as const) {
      const refused = await call(server.url, method, path, { cookie, headers });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("csrf_rejected");
    }
  });

  it("lets same-origin and non-browser requests through", async () => {
    expect((await login(user.email, user.password, { origin: server.url, "sec-fetch-site": "same-origin" })).status).toBe(201);
    expect((await login(user.email, user.password, { "sec-fetch-site": "none" })).status).toBe(201);
  });
});

describe("keys", () => {
  it("creates with the secret once, lists without it, revokes idempotently", async () => {
    const cookie = sessionCookie(await login(user.email, user.password));
    const created = await call(server.url, "POST", "/api/v1/keys", { cookie, body: { name: "laptop" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^key_/), name: "laptop", revoked_at: null, last_used_at: null });
    expect(created.body.prefix).toBe(created.body.key.slice(0, 10));
    expect(created.body.last4).toBe(created.body.key.slice(-4));

    const unnamed = await call(server.url, "POST", "/api/v1/keys", { cookie });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.name).toBeNull();

    const list = await call(server.url, "GET", "/api/v1/keys", { cookie });
    expect(list.status).toBe(200);
    const ids = list.body.data.map((k: { id: string }) => k.id);
    expect(ids).toEqual(expect.arrayContaining([created.body.id, unnamed.body.id, user.keyId]));
    expect(list.text).not.toContain(created.body.key);
    for (const k of list.body.data) expect(k).not.toHaveProperty("key");

    expect((await call(server.url, "DELETE", `/api/v1/keys/${created.body.id}`, { cookie })).status).toBe(204);
    expect((await call(server.url, "DELETE", `/api/v1/keys/${created.body.id}`, { cookie })).status).toBe(204);
    const revoked = (await call(server.url, "GET", "/api/v1/keys", { cookie })).body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(revoked.revoked_at).toBe(new Date(now).toISOString().replace(".000Z", "Z"));
  });

  it("404 not_found for another account's key and for unknown ids, leaving the key alive", async () => {
    const other = await server.createAccount();
    const cookie = sessionCookie(await login(user.email, user.password));
    for (const id of [other.keyId, "key_unknown", "..%2F..%2Fsession", encodeURIComponent("key_x'; DROP TABLE api_keys;--")]) {
      const r = await call(server.url, "DELETE", `/api/v1/keys/${id}`, { cookie });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("not_found");
    }
    const still = await call(server.url, "POST", "/api/v1/iccid/lookup", { key: other.apiKey, body: { iccid: "89441000000000000018" } });
    expect(still.status).toBe(200);
  });

  it("a NUL in a login email, key name or key id is a 4xx naming it, never a 500 (PostgreSQL cannot store NUL)", async () => {
    const email = await login(`${user.email}\u0000`, user.password);
    expect(email.status).toBe(422);
    expect(email.body.errors[0].pointer).toBe("/email");
    const cookie = sessionCookie(await login(user.email, user.password));
    const name = await call(server.url, "POST", "/api/v1/keys", { cookie, body: { name: "ci\u0000key" } });
    expect(name.status).toBe(422);
    expect(name.body.errors[0].pointer).toBe("/name");
    const id = await call(server.url, "DELETE", `/api/v1/keys/${encodeURIComponent(`${user.keyId}\u0000`)}`, { cookie });
    expect(id.status).toBe(404);
    expect(id.body.code).toBe("not_found");
  });

  it("422 for a name over 100 characters or of the wrong type", async () => {
    const cookie = sessionCookie(await login(user.email, user.password));
    for (const name of ["x".repeat(101), 42, ""]) {
      const r = await call(server.url, "POST", "/api/v1/keys", { cookie, body: { name } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].pointer).toBe("/name");
    }
  });
});
