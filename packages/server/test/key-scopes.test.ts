import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestAccount, type TestServer } from "../test-support/index.js";
import type { Clock } from "../src/time.js";
import { call, sessionCookie } from "./http.js";

// Scopes, expiry and rolling, against a real server (SQLite here, PostgreSQL + Redis in server-postgres).
let server: TestServer;
let user: TestAccount;
let cookie: string;
let now = Date.parse("2026-11-21T04:00:00Z");
const clock: Clock = { now: () => now };
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const GOOD = "89441000000000000018";

beforeAll(async () => {
  server = await startTestServer({ clock });
  user = await server.createAccount();
  cookie = sessionCookie(await call(server.url, "POST", "/api/v1/session", { body: { email: user.email, password: user.password } }));
});
afterAll(async () => server?.close());

const createKey = (body: unknown, as = cookie) => call(server.url, "POST", "/api/v1/keys", { cookie: as, body });
const roll = (id: string, body?: unknown) => call(server.url, "POST", `/api/v1/keys/${id}/roll`, { cookie, ...(body === undefined ? {} : { body }) });
const lookup = (key: string) => call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: GOOD } });
const batch = (key: string) => call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: [GOOD] } });
const usage = (key: string) => call(server.url, "GET", "/api/v1/usage", { key });
const listed = async (id: string) => (await call(server.url, "GET", "/api/v1/keys", { cookie })).body.data.find((k: { id: string }) => k.id === id);

describe("scopes", () => {
  it("a key has every scope by default, and its record carries scopes, expires_at and last_used_at", async () => {
    const created = await createKey({ name: "default" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ scopes: ["lookup", "usage:read"], expires_at: null, last_used_at: null });
    expect((await lookup(created.body.key)).status).toBe(200);
    expect((await usage(created.body.key)).status).toBe(200);
    expect(await listed(created.body.id)).toMatchObject({ scopes: ["lookup", "usage:read"], expires_at: null, last_used_at: iso(now) });
  });

  it("403 insufficient_scope naming the missing scope, charging nothing, on lookups and on the usage read", async () => {
    const readOnly = (await createKey({ name: "dashboard", scopes: ["usage:read"] })).body;
    const lookupOnly = (await createKey({ name: "worker", scopes: ["lookup"] })).body;
    expect(readOnly.scopes).toEqual(["usage:read"]);
    const beforeAnswer = await usage(readOnly.key);
    const before = beforeAnswer.body;

    for (const refused of [await lookup(readOnly.key), await batch(readOnly.key)]) {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: "insufficient_scope", required_scope: "lookup" });
      expect(refused.body.detail).toContain("lookup");
      expect(refused.headers["www-authenticate"]).toBe('Bearer realm="iccid", error="insufficient_scope", scope="lookup"');
    }
    const refusedRead = await usage(lookupOnly.key);
    expect(refusedRead.status).toBe(403);
    expect(refusedRead.body).toMatchObject({ code: "insufficient_scope", required_scope: "usage:read" });

    // Neither quota nor requests moved, and the rate limit was not spent.
    const afterAnswer = await usage(readOnly.key);
    const after = afterAnswer.body;
    expect(after.quota.used).toBe(before.quota.used);
    expect(after.totals).toEqual(before.totals);
    const remaining = (answer: { headers: Record<string, string> }) => /r=(\d+)/.exec(answer.headers.ratelimit ?? "")?.[1];
    expect(remaining(beforeAnswer)).toBeDefined();
    expect(remaining(afterAnswer)).toBe(remaining(beforeAnswer));
    expect((await lookup(lookupOnly.key)).status).toBe(200);
  });

  it("is told apart from the 403 of an inactive subscription by its code", async () => {
    const other = await server.createAccount();
    const otherCookie = sessionCookie(await call(server.url, "POST", "/api/v1/session", { body: { email: other.email, password: other.password } }));
    const readOnly = (await createKey({ scopes: ["usage:read"] }, otherCookie)).body;
    await server.setSubscription(other.email, "canceled");
    const scoped = await lookup(readOnly.key);
    const inactive = await lookup(other.apiKey);
    expect([scoped.status, inactive.status]).toEqual([403, 403]);
    expect(scoped.body.code).toBe("insufficient_scope");
    expect(inactive.body.code).toBe("no_active_subscription");
  });

  it("422 naming the field for an unknown, repeated or empty list of scopes", async () => {
    for (const [scopes, pointer] of [
      [["admin"], "/scopes/0"],
      [["lookup", "lookup"], "/scopes"],
      [[], "/scopes"],
      ["lookup", "/scopes"],
    ] as const) {
      const r = await createKey({ scopes });
      expect(r.status, JSON.stringify(scopes)).toBe(422);
      expect(r.body.code).toBe("invalid_input");
      expect(r.body.errors[0].pointer).toBe(pointer);
    }
  });
});

describe("expiry", () => {
  it("works until expires_at, then 401 expired_api_key (not invalid_api_key)", async () => {
    const created = await createKey({ name: "contractor", expires_at: iso(now + 2 * HOUR) });
    expect(created.status).toBe(201);
    expect(created.body.expires_at).toBe(iso(now + 2 * HOUR));
    expect((await lookup(created.body.key)).status).toBe(200);
    now += 2 * HOUR - 1_000;
    expect((await lookup(created.body.key)).status).toBe(200);
    now += 1_000;
    for (const refused of [await lookup(created.body.key), await usage(created.body.key)]) {
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe("expired_api_key");
      expect(refused.headers["www-authenticate"]).toBe('Bearer realm="iccid", error="invalid_token"');
    }
  });

  it("422 naming expires_at when it is in the past, now, more than 5 years ahead or not a time", async () => {
    const fiveYears = 5 * 365 * 24 * HOUR;
    for (const expires_at of [iso(now - 1_000), iso(now), iso(now + fiveYears + 60_000), "next tuesday", 1767225600]) {
      const r = await createKey({ expires_at });
      expect(r.status, String(expires_at)).toBe(422);
      expect(r.body.errors[0].pointer).toBe("/expires_at");
    }
    // The bounds themselves: a minute ahead, five years ahead, and an offset other than Z.
    for (const expires_at of [iso(now + 60_000), iso(now + fiveYears), "2027-01-01T09:00:00+09:00"]) {
      expect((await createKey({ expires_at })).status, expires_at).toBe(201);
    }
    expect((await createKey({ expires_at: null })).body.expires_at).toBeNull();
  });
});

describe("rolling", () => {
  it("answers a new key with the old one's name and scopes; the old one works through the grace period, then 401 expired_api_key", async () => {
    const old = (await createKey({ name: "ci", scopes: ["lookup"] })).body;
    const rolled = await roll(old.id, { grace_seconds: 3600 });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ name: "ci", scopes: ["lookup"], expires_at: null, revoked_at: null });
    expect(rolled.body.id).not.toBe(old.id);
    expect(rolled.body.key).not.toBe(old.key);
    expect(await listed(old.id)).toMatchObject({ expires_at: iso(now + HOUR), revoked_at: null });

    expect((await lookup(old.key)).status).toBe(200);
    expect((await lookup(rolled.body.key)).status).toBe(200);
    now += HOUR;
    const refused = await lookup(old.key);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("expired_api_key");
    expect((await lookup(rolled.body.key)).status).toBe(200);
  });

  it("without a grace period the old key stops at once; the new one keeps the old one's expiry", async () => {
    const old = (await createKey({ name: "expiring", expires_at: iso(now + 48 * HOUR) })).body;
    expect((await lookup(old.key)).status).toBe(200);
    const rolled = await roll(old.id);
    expect(rolled.status).toBe(201);
    expect(rolled.body.expires_at).toBe(iso(now + 48 * HOUR));
    expect((await lookup(old.key)).body.code).toBe("expired_api_key");
    expect((await lookup(rolled.body.key)).status).toBe(200);
  });

  it("409 key_not_rollable for a revoked, expired or already rolled key; 404 for another account's or an unknown one", async () => {
    const revoked = (await createKey({})).body;
    await call(server.url, "DELETE", `/api/v1/keys/${revoked.id}`, { cookie });
    const expired = (await createKey({ expires_at: iso(now + HOUR) })).body;
    const rolledOnce = (await createKey({})).body;
    expect((await roll(rolledOnce.id, { grace_seconds: 600 })).status).toBe(201);
    now += HOUR;
    for (const id of [revoked.id, expired.id, rolledOnce.id]) {
      const r = await roll(id, { grace_seconds: 60 });
      expect(r.status).toBe(409);
      expect(r.body.code).toBe("key_not_rollable");
    }
    const other = await server.createAccount();
    for (const id of [other.keyId, "key_unknown", "nonsense"]) {
      const r = await roll(id);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("not_found");
    }
    expect((await lookup(other.apiKey)).status).toBe(200);
  });

  it("of two rolls of one key at once, one succeeds and the other is 409", async () => {
    const key = (await createKey({ name: "raced" })).body;
    const answers = await Promise.all([roll(key.id, { grace_seconds: 60 }), roll(key.id, { grace_seconds: 60 })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const keys = (await call(server.url, "GET", "/api/v1/keys", { cookie })).body.data.filter((k: { name: string }) => k.name === "raced");
    expect(keys).toHaveLength(2);
  });

  it("422 naming grace_seconds outside 0…604800 or not a whole number; 403 csrf_rejected cross-site", async () => {
    const key = (await createKey({})).body;
    for (const grace_seconds of [-1, 604_801, 1.5, "60"]) {
      const r = await roll(key.id, { grace_seconds });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].pointer).toBe("/grace_seconds");
    }
    const crossSite = await call(server.url, "POST", `/api/v1/keys/${key.id}/roll`, { cookie, headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe("csrf_rejected");
    expect((await roll(key.id, { grace_seconds: 604_800 })).status).toBe(201);
  });
});
