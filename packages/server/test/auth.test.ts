import { API_KEY_PATTERN, formatApiKey } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call, sessionCookie } from "./http.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const lookup = (headers: Record<string, string>) =>
  call(server.url, "POST", "/api/v1/iccid/lookup", { headers, body: { iccid: "89441000000000000018" } });

describe("Bearer API keys", () => {
  it.each([
    ["no Authorization header", {}],
    ["another scheme", { authorization: "Digest username=\"iccid\"" }],
    ["an empty Bearer", { authorization: "Bearer " }],
    ["HTTP Basic with an empty user", { authorization: `Basic ${Buffer.from(":").toString("base64")}` }],
  ])("401 missing_api_key with %s", async (_label, headers) => {
    const r = await lookup(headers);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("missing_api_key");
    expect(r.headers["www-authenticate"]).toMatch(/^Bearer/);
  });

  it.each([
    ["a malformed key", "not-a-key"],
    ["a key with a bad checksum", `${formatApiKey("a".repeat(22)).slice(0, -1)}x`],
    ["a well-formed unknown key", formatApiKey("b".repeat(22))],
  ])("401 invalid_api_key for %s", async (_label, key) => {
    const r = await lookup({ authorization: `Bearer ${key}` });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("invalid_api_key");
    expect(r.headers["www-authenticate"]).toMatch(/^Bearer.*invalid_token/);
  });

  it("HTTP Basic with the key as the user and an empty password (curl -u KEY:) is the key, as a Bearer one is", async () => {
    const user = await server.createAccount();
    const basic = (pair: string) => ({ authorization: `Basic ${Buffer.from(pair).toString("base64")}` });
    const r = await lookup(basic(`${user.apiKey}:`));
    expect(r.status).toBe(200);
    expect(r.body.issuer.name).toBe("Vodafone plc");
    expect(r.headers["ratelimit-policy"]).toBe('"default";q=600;w=60');
    // The user name alone is the key; an unknown one is refused as a Bearer one would be.
    expect((await lookup(basic(formatApiKey("c".repeat(22)) + ":"))).body.code).toBe("invalid_api_key");
    expect((await lookup(basic("not-a-key:"))).body.code).toBe("invalid_api_key");
  });

  it("403 no_active_subscription when the subscription is not active, with RateLimit fields", async () => {
    const user = await server.createAccount({ status: "past_due" });
    const r = await lookup({ authorization: `Bearer ${user.apiKey}` });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("no_active_subscription");
    expect(r.headers["ratelimit-policy"]).toBe('"default";q=600;w=60');
    await server.setSubscription(user.email, "active");
    expect((await lookup({ authorization: `Bearer ${user.apiKey}` })).status).toBe(200);
    await server.setSubscription(user.email, "canceled");
    expect((await lookup({ authorization: `Bearer ${user.apiKey}` })).body.code).toBe("no_active_subscription");
  });

  it("revocation takes effect on the very next request", async () => {
    const user = await server.createAccount();
    const login = await call(server.url, "POST", "/api/v1/session", { body: { email: user.email, password: user.password } });
    const cookie = sessionCookie(login);
    const created = await call(server.url, "POST", "/api/v1/keys", { cookie, body: { name: "ci" } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(new RegExp(`^${API_KEY_PATTERN.source}$`));
    const auth = { authorization: `Bearer ${created.body.key}` };
    expect((await lookup(auth)).status).toBe(200);
    expect((await call(server.url, "DELETE", `/api/v1/keys/${created.body.id}`, { cookie })).status).toBe(204);
    const refused = await lookup(auth);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("revoked_api_key");
  });
});
