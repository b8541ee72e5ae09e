import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/index.js";
import { call, sessionCookie } from "../http.js";

// The account page's server side over plain HTTP: what the page is served with, and the session-authenticated
// usage read it draws from. (The browser test covers what a user sees.)

let server: TestServer;
let cookie: string;
const GOOD = "89441000000000000018";

beforeAll(async () => {
  server = await startTestServer();
  const login = await call(server.url, "POST", "/api/v1/session", { body: { email: server.owner.email, password: server.owner.password } });
  cookie = sessionCookie(login);
  await call(server.url, "POST", "/api/v1/iccid/batch", { key: server.owner.apiKey, body: { iccids: [GOOD, "89441000000000000026"] } });
});
afterAll(async () => server?.close());

describe("the account page", () => {
  it("redirects / to /account", async () => {
    const r = await call(server.url, "GET", "/");
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe("/account");
  });

  it("serves HTML with a strict CSP and the house headers, referring only to its own assets", async () => {
    const r = await call(server.url, "GET", "/account");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(r.headers["content-security-policy"]).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(r.headers["cache-control"]).toBe("no-store");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    // No inline script or style, and nothing from another origin.
    expect(r.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(r.text).not.toMatch(/<style|\sstyle=/);
    expect(r.text).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    for (const [, asset] of r.text.matchAll(/(?:src|href)="(\/account\/assets\/[^"]+)"/g)) {
      expect((await call(server.url, "GET", asset!)).status, asset).toBe(200);
    }
  });

  it("serves scripts and styles with their types, and nothing it did not build", async () => {
    const js = await call(server.url, "GET", "/account/assets/main.js");
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.text).toContain("import");
    expect((await call(server.url, "GET", "/account/assets/account.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
    for (const path of ["/account/assets/nope.js", "/account/assets/account.html", "/account/assets/..%2Fweb%2Fmain.js", "/account/assets/main.js.map"]) {
      const r = await call(server.url, "GET", path);
      expect(r.status, path).toBe(404);
      expect(r.body.code).toBe("not_found");
    }
  });
});

describe("GET /api/v1/account/usage", () => {
  it("401 not_authenticated without a session, and an API key is no substitute", async () => {
    for (const c of [{}, { key: server.owner.apiKey }]) {
      const r = await call(server.url, "GET", "/api/v1/account/usage", c);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("not_authenticated");
    }
  });

  it("answers the same report as the Bearer read, with the same query", async () => {
    for (const query of ["", "?granularity=hour", "?from=2020-01-01&to=2020-02-01&granularity=month"]) {
      const bySession = await call(server.url, "GET", `/api/v1/account/usage${query}`, { cookie });
      const byKey = await call(server.url, "GET", `/api/v1/usage${query}`, { key: server.owner.apiKey });
      expect(bySession.status, query).toBe(200);
      const { as_of: _a, ...session } = bySession.body;
      const { as_of: _b, ...bearer } = byKey.body;
      expect(session, query).toEqual(bearer);
    }
    const r = await call(server.url, "GET", "/api/v1/account/usage", { cookie });
    expect(r.body.quota.used).toBe(2);
    expect(r.body.totals).toEqual({ requests: 1, lookups: 2 });
  });

  it("422 invalid_input for a bad query, as on the Bearer read", async () => {
    const r = await call(server.url, "GET", "/api/v1/account/usage?granularity=week", { cookie });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("invalid_input");
    expect(r.body.errors[0].pointer).toBe("/granularity");
  });

  it("still answers when the subscription is not active, so the page can show why calls fail", async () => {
    const other = await server.createAccount({ status: "past_due" });
    const login = await call(server.url, "POST", "/api/v1/session", { body: { email: other.email, password: other.password } });
    const r = await call(server.url, "GET", "/api/v1/account/usage", { cookie: sessionCookie(login) });
    expect(r.status).toBe(200);
    expect(r.body.subscription.status).toBe("past_due");
    expect((await call(server.url, "GET", "/api/v1/usage", { key: other.apiKey })).body.code).toBe("no_active_subscription");
  });
});
