import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestAccount, type TestServer } from "../test-support/index.js";
import { call, sessionCookie } from "./http.js";

// The lookup routes with the account page's session instead of a key: the CSRF rule of the session
// routes, the same subscription check, rate limit and quota as a key, and usage counted apart from keys.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 1000, window_seconds: 60, monthly_lookups: 1000 } });
  await server.setPlan("tiny", { rate_limit: 2, window_seconds: 60, monthly_lookups: 3 });
});
afterAll(async () => server?.close());

async function signIn(account: TestAccount): Promise<string> {
  return sessionCookie(await call(server.url, "POST", "/api/v1/session", { body: { email: account.email, password: account.password } }));
}

const VALID = ["89441000000000000018", "8931440000000000001", "89014103211118510720"];
const sameOrigin = () => ({ origin: server.url, "sec-fetch-site": "same-origin" });

describe("lookups with the account page's session", () => {
  it("answers a lookup and a batch, charged to the account and grouped apart from its keys", async () => {
    const user = await server.createAccount();
    const cookie = await signIn(user);
    const one = await call(server.url, "POST", "/api/v1/iccid/lookup", { cookie, headers: sameOrigin(), body: { iccid: VALID[0] } });
    expect(one.status).toBe(200);
    expect(one.body.iccid).toBe(VALID[0]);
    expect(one.headers["ratelimit"]).toMatch(/r=/);
    const batch = await call(server.url, "POST", "/api/v1/iccid/batch", { cookie, headers: sameOrigin(), body: { iccids: [...VALID, VALID[0], "nope"] } });
    expect(batch.status).toBe(200);
    expect(batch.body.summary).toMatchObject({ total: 5, ok: 4, failed: 1 });
    // And a key's lookup, to show the two apart.
    expect((await call(server.url, "POST", "/api/v1/iccid/lookup", { key: user.apiKey, body: { iccid: VALID[1] } })).status).toBe(200);

    const usage = await call(server.url, "GET", "/api/v1/usage?group_by=api_key", { key: user.apiKey });
    expect(usage.body.quota.used).toBe(1 + 3 + 1);
    expect(usage.body.by_key).toEqual([
      { key_id: "web_page", name: "Web page", requests: 2, lookups: 4 },
      { key_id: user.keyId, name: "test", requests: 1, lookups: 1 },
    ]);
  });

  it("shares an Idempotency-Key between the account's keys and its session: the same request is run once", async () => {
    const user = await server.createAccount();
    const cookie = await signIn(user);
    const body = { iccids: [VALID[0], VALID[1]] };
    const first = await call(server.url, "POST", "/api/v1/iccid/batch", { key: user.apiKey, headers: { "idempotency-key": "shared" }, body });
    expect([first.status, first.headers["idempotent-replayed"]]).toEqual([200, undefined]);
    const fromPage = await call(server.url, "POST", "/api/v1/iccid/batch", { cookie, headers: { ...sameOrigin(), "idempotency-key": "shared" }, body });
    expect([fromPage.status, fromPage.headers["idempotent-replayed"]]).toEqual([200, "true"]);
    expect(fromPage.text).toBe(first.text);
    const usage = await call(server.url, "GET", "/api/v1/usage", { key: user.apiKey });
    expect(usage.body.quota.used).toBe(2);
  });

  it("refuses a cross-site request riding on the cookie, and charges nothing", async () => {
    const user = await server.createAccount();
    const cookie = await signIn(user);
    for (const headers of [{ "sec-fetch-site": "cross-site" }, { origin: "http://evil.test" }] as Record<string, string>[]) {
      const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { cookie, headers, body: { iccid: VALID[0] } });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("csrf_rejected");
    }
    const usage = await call(server.url, "GET", "/api/v1/usage", { key: user.apiKey });
    expect(usage.body.quota.used).toBe(0);
  });

  it("a key still works from another site: the CSRF rule is the cookie's", async () => {
    const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { key: server.owner.apiKey, headers: { "sec-fetch-site": "cross-site", origin: "http://app.test" }, body: { iccid: VALID[0] } });
    expect(r.status).toBe(200);
  });

  it("401 not_authenticated for an ended session, missing_api_key with neither credential", async () => {
    const forged = await call(server.url, "POST", "/api/v1/iccid/lookup", { cookie: "iccid_session=forged", body: { iccid: VALID[0] } });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe("not_authenticated");
    const none = await call(server.url, "POST", "/api/v1/iccid/lookup", { body: { iccid: VALID[0] } });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe("missing_api_key");
  });

  it("an Authorization header wins over the cookie", async () => {
    const user = await server.createAccount();
    const cookie = await signIn(user);
    const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { cookie, key: "iccid_live_wrong", body: { iccid: VALID[0] } });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("invalid_api_key");
  });

  it("is held to the subscription, the rate limit and the quota as a key is", async () => {
    const inactive = await server.createAccount({ status: "past_due" });
    const refused = await call(server.url, "POST", "/api/v1/iccid/lookup", { cookie: await signIn(inactive), body: { iccid: VALID[0] } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("no_active_subscription");

    const user = await server.createAccount({ plan: "tiny" });
    const cookie = await signIn(user);
    const first = await call(server.url, "POST", "/api/v1/iccid/batch", { cookie, body: { iccids: VALID.slice(0, 2) } });
    expect(first.status).toBe(200);

    const over = await call(server.url, "POST", "/api/v1/iccid/batch", { cookie, body: { iccids: VALID } });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("quota_exceeded");
    const limited = await call(server.url, "POST", "/api/v1/iccid/lookup", { cookie, body: { iccid: VALID[2] } });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // The key shares the account's rate limit with the page.
    expect((await call(server.url, "POST", "/api/v1/iccid/lookup", { key: user.apiKey, body: { iccid: VALID[2] } })).status).toBe(429);
    const usage = await call(server.url, "GET", "/api/v1/account/usage", { cookie });
    expect(usage.body.quota.used).toBe(2);
  });
});
