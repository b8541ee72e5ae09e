import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccid, tempDir } from "./harness.js";

// `iccid keys create --scope … --expires …`, `iccid keys roll --grace …` and `iccid audit`, through the
// built binary against a real server.
const UK = "89441000000000000018";
const DAY = 86_400_000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function loggedIn(): Promise<{ env: Record<string, string>; email: string }> {
  const account = await server.createAccount();
  const env = { ICCID_BASE_URL: server.url, ICCID_CONFIG_DIR: tempDir() };
  expect((await iccid(["login", "--email", account.email, "--password-stdin"], { env, input: account.password + "\n" })).code).toBe(0);
  return { env, email: account.email };
}

describe("iccid keys create --scope --expires, keys roll --grace, audit", () => {
  it("creates a scoped key with an expiry, rolls it with a grace period, and shows the trail", async () => {
    const { env } = await loggedIn();
    const before = Date.now();
    const created = await iccid(["keys", "create", "--name", "dashboard", "--scope", "usage:read", "--expires", "90d", "--json"], { env });
    expect(created.code, created.stderr).toBe(0);
    const record = JSON.parse(created.stdout);
    expect(record).toMatchObject({ name: "dashboard", scopes: ["usage:read"] });
    const expiresIn = Date.parse(record.expires_at) - before;
    expect(expiresIn).toBeGreaterThan(90 * DAY - 60_000);
    expect(expiresIn).toBeLessThan(90 * DAY + 60_000);
    expect(created.stderr).toContain("usage:read, working until");

    const withKey = { ...env, ICCID_API_KEY: record.key };
    const refused = await iccid(["lookup", UK], { env: withKey });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/insufficient_scope: The API key lacks the lookup scope; use a key with that scope/);
    expect((await iccid(["usage"], { env: withKey })).code).toBe(0);

    const rolled = await iccid(["keys", "roll", record.id, "--grace", "24h", "--json"], { env });
    expect(rolled.code, rolled.stderr).toBe(0);
    const successor = JSON.parse(rolled.stdout);
    expect(successor).toMatchObject({ name: "dashboard", scopes: ["usage:read"], expires_at: record.expires_at });
    expect(rolled.stderr).toContain(`${record.id} keeps working for 86400 s more`);
    expect((await iccid(["usage"], { env: withKey })).code).toBe(0); // in its grace period
    expect((await iccid(["usage"], { env: { ...env, ICCID_API_KEY: successor.key } })).code).toBe(0);

    const list = JSON.parse((await iccid(["keys", "list", "--json"], { env })).stdout) as Array<{ id: string; expires_at: string | null }>;
    const old = list.find((k) => k.id === record.id)!;
    expect(Date.parse(old.expires_at!) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    const again = await iccid(["keys", "roll", record.id], { env });
    expect(again.code).toBe(1);
    // One sentence: what went wrong and what to do, no second hint that contradicts it.
    expect(again.stderr).toMatch(/^iccid: error: key_not_rollable: The API key was rolled already; roll the key that replaced it instead \(request id req_\S+\)\n$/);

    const trail = await iccid(["audit", "--json"], { env });
    expect(trail.code, trail.stderr).toBe(0);
    const events = JSON.parse(trail.stdout) as Array<{ action: string; target?: string }>;
    expect(events.map((e) => e.action)).toEqual(["key.rolled", "key.created", "session.created", "key.created", "account.created"]);
    expect(events[0]!.target).toBe(record.id);
    for (const secret of [record.key, successor.key]) expect(trail.stdout).not.toContain(secret);

    const piped = await iccid(["audit", "--limit", "2"], { env });
    const lines = piped.stdout.split("\n").filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split("\t").slice(1, 2)).toEqual(["key.rolled"]);
    const every = JSON.parse((await iccid(["audit", "--all", "--json"], { env })).stdout);
    expect(every).toHaveLength(5);
  });

  it("refuses a bad --scope, --expires, --grace or --limit as a usage error (2) before any request", async () => {
    const { env } = await loggedIn();
    for (const args of [
      ["keys", "create", "--scope", "admin"],
      ["keys", "create", "--expires", "soon"],
      ["keys", "create", "--expires", "2027-01-01"],
      ["keys", "roll", "key_abc", "--grace", "1 day"],
      ["audit", "--limit", "0"],
      ["audit", "--limit", "101"],
    ]) {
      const r = await iccid(args, { env });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(/^iccid: usage error: /);
    }
    // A value the server refuses (too far ahead, grace over 7 days) names the field.
    const tooFar = await iccid(["keys", "create", "--expires", "2000d"], { env });
    expect(tooFar.code).toBe(1);
    expect(tooFar.stderr).toContain("expires_at");
    const list = JSON.parse((await iccid(["keys", "list", "--json"], { env })).stdout) as Array<{ id: string }>;
    const longGrace = await iccid(["keys", "roll", list[0]!.id, "--grace", "8d"], { env });
    expect(longGrace.code).toBe(1);
    expect(longGrace.stderr).toContain("grace_seconds");
  });
});
