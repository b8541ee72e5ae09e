import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestAccount, type TestServer } from "../test-support/index.js";
import { call, sessionCookie } from "./http.js";

// DELETE /api/v1/sessions ends every session of the account, the caller's included, and no other
// account's; API keys keep working; the trail says who did it.
let server: TestServer;
let user: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  user = await server.createAccount();
});
afterAll(async () => server?.close());

const signIn = async (account: TestAccount) =>
  sessionCookie(await call(server.url, "POST", "/api/v1/session", { body: { email: account.email, password: account.password }, headers: { "user-agent": "browser/1" } }));
const current = (cookie: string) => call(server.url, "GET", "/api/v1/session", { cookie });

describe("sign out everywhere", () => {
  it("ends every session of the account, this one included; keys and other accounts' sessions stay", async () => {
    const sessions = [await signIn(user), await signIn(user), await signIn(user)];
    const other = await server.createAccount();
    const othersSession = await signIn(other);
    for (const cookie of sessions) expect((await current(cookie)).status).toBe(200);

    const ended = await call(server.url, "DELETE", "/api/v1/sessions", { cookie: sessions[1]!, headers: { "user-agent": "browser/1" } });
    expect(ended.status).toBe(204);
    expect(ended.headers["set-cookie"]).toMatch(/^iccid_session=;.*expires=Thu, 01 Jan 1970/i);
    for (const cookie of sessions) expect((await current(cookie)).status).toBe(401);
    expect((await current(othersSession)).status).toBe(200);
    const lookup = await call(server.url, "POST", "/api/v1/iccid/lookup", { key: user.apiKey, body: { iccid: "89441000000000000018" } });
    expect(lookup.status).toBe(200);

    const trail = await server.store.auditEvents({ accountId: user.id, limit: 10 });
    expect(trail[0]).toMatchObject({ action: "sessions.ended", actor_type: "session", ip: "127.0.0.1", user_agent: "browser/1" });
  });

  it("needs a session, and is refused cross-site", async () => {
    expect((await call(server.url, "DELETE", "/api/v1/sessions")).status).toBe(401);
    const cookie = await signIn(user);
    const crossSite = await call(server.url, "DELETE", "/api/v1/sessions", { cookie, headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite).toMatchObject({ status: 403, body: { code: "csrf_rejected" } });
    expect((await current(cookie)).status).toBe(200);
  });
});
