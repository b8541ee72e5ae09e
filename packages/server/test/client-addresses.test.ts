import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call } from "./http.js";

// Behind --trust-proxy, the forwarded address in its one written form: the sign-in budget per address
// counts the forms of one address (IPv4-mapped, leading zeros, brackets and ports) as one client and an
// IPv6 /64 as one; the trail records the form, and an entry that is no address is not recorded.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ settings: { trustProxy: true, loginAttemptsPerIp: 3, loginAttemptsPerEmail: 1000 } });
});
afterAll(async () => server?.close());

const signIn = (forwarded: string, email = "nobody@example.test") =>
  call(server.url, "POST", "/api/v1/session", { body: { email, password: "wrong-password" }, headers: { "x-forwarded-for": forwarded } });

describe("a forwarded client address", () => {
  it("is one client in any of its forms: the fourth attempt is refused", async () => {
    const statuses = [];
    for (const form of ["::ffff:203.0.113.9", "203.000.113.009", "[::ffff:203.0.113.9]:4431", "203.0.113.9:5000"]) statuses.push((await signIn(form)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await signIn("203.0.113.10")).status).toBe(401);
  });

  it("is counted by its /64 when it is IPv6", async () => {
    const statuses = [];
    for (const address of ["2001:db8:7:7::1", "2001:db8:7:7:ffff:1:2:3", "2001:db8:7:7:abcd::9", "2001:db8:7:7::2"]) statuses.push((await signIn(address)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await signIn("2001:db8:7:8::1")).status).toBe(401);
  });

  it("is recorded in its one form; an entry that is no address is recorded as the connection's peer", async () => {
    const account = await server.createAccount();
    for (const forwarded of ["2001:0DB8:0:0:0:0:0:0042", `${"9".repeat(8000)}`, "203.0.113.77\u0085"]) await signIn(forwarded, account.email);
    const trail = await server.store.auditEvents({ accountId: account.id, limit: 10 });
    expect(trail.filter((e) => e.action === "session.failed").map((e) => e.ip).reverse()).toEqual(["2001:db8::42", "127.0.0.1", "127.0.0.1"]);
  });
});
