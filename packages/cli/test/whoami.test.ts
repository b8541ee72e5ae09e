import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccid, serverEnv } from "./harness.js";

// `iccid whoami`, and `iccid usage` signed in without a key, through the built binary on a real server.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 1200, monthly_lookups: 1_000_000 } });
});
afterAll(() => server?.close());

describe("iccid whoami", () => {
  it("names the server, the signed-in account, the key (masked, and where from) and the plan", async () => {
    const account = await server.createAccount();
    const env = serverEnv(server.url, account.apiKey);
    const anonymous = await iccid(["whoami"], { env: serverEnv(server.url) });
    expect(anonymous.code).toBe(4);
    expect(anonymous.stderr).toBe(`iccid: error: neither signed in to ${server.url} nor given an API key: run \`iccid login\`, or pass --api-key or set ICCID_API_KEY\n`);

    const keyOnly = await iccid(["whoami"], { env });
    expect(keyOnly.code, keyOnly.stderr).toBe(0);
    expect(keyOnly.stdout).toMatch(new RegExp(`^Server +${server.url.replace(/[.]/g, "\\.")}\n`));
    expect(keyOnly.stdout).toMatch(/Signed in +no \(`iccid login`\)\n/);
    expect(keyOnly.stdout).toMatch(/API key +iccid_\S{4}…\S{4} from ICCID_API_KEY\n/);
    expect(keyOnly.stdout).toMatch(/Plan +standard, active: 1,200 requests per 60 s, 1,000,000 lookups a period\n/);
    expect(keyOnly.stdout).not.toContain(account.apiKey);

    expect((await iccid(["login", "--email", account.email, "--password-stdin"], { env, input: `${account.password}\n` })).code).toBe(0);
    const both = JSON.parse((await iccid(["whoami", "--json"], { env })).stdout);
    expect(both).toMatchObject({
      base_url: server.url,
      session: { email: account.email, account_id: expect.stringMatching(/^acc_/) },
      api_key: { source: "ICCID_API_KEY" },
      account: { subscription: { plan: "standard", status: "active" }, quota: { limit: 1_000_000 }, rate_limit: { limit: 1200 } },
    });
    expect(JSON.stringify(both)).not.toContain(account.apiKey);
  });
});

describe("iccid usage", () => {
  it("signed in without a key reads the signed-in account's usage through the session", async () => {
    const account = await server.createAccount();
    const env = serverEnv(server.url);
    const before = await iccid(["usage"], { env });
    expect(before.code).toBe(4);
    expect(before.stderr).toMatch(/no API key/);
    expect((await iccid(["login", "--email", account.email, "--password-stdin"], { env, input: `${account.password}\n` })).code).toBe(0);
    const run = await iccid(["usage"], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Quota\s+0 of 1,000,000 lookups used · 1,000,000 remaining\n/);
  });

  it("refuses a --from the server would refuse itself, naming the flag (exit 2), before any request", async () => {
    const env = serverEnv(server.url, server.owner.apiKey);
    for (const value of ["10:30", "2026-11-01T10:30Z", "2026-02-30"]) {
      const run = await iccid(["usage", "--from", value], { env });
      expect(run.code, value).toBe(2);
      expect(run.stderr).toContain(`option '--from <date>' argument '${value}' is invalid`);
    }
  });
});
