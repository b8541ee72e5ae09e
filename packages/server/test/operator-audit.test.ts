import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/store/open.js";
import { createTestDatabase, SERVER_BIN, type TestDatabase } from "../test-support/index.js";

// `iccid-server key create --scope --expires`, the operator's changes on the audit trail, and
// `iccid-server audit`, through the built binary: on a SQLite file, or (server-postgres) a fresh database.
const DAY = 86_400_000;
let dir: string;
let db: string;
let database: TestDatabase | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-audit-ops-"));
  if (process.env.ICCID_TEST_STORE === "postgres") {
    database = await createTestDatabase(process.env.ICCID_TEST_POSTGRES_URL!);
    db = Object.assign(new URL(process.env.ICCID_TEST_POSTGRES_URL!), { pathname: `/${database.name}` }).toString();
  } else {
    db = join(dir, "iccid.db");
  }
  expect(spawnSync(process.execPath, [SERVER_BIN, "migrate", "--db", db]).status).toBe(0);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [SERVER_BIN, ...args], { input, encoding: "utf8", env: { ...process.env, ICCID_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const operator = { type: "operator", id: userInfo().username };
/** The newest event on the whole trail. */
const newest = () => (JSON.parse(run(["audit", "--json"]).stdout) as Array<{ action: string; actor: unknown; target?: string }>)[0]!;

describe("the operator and the audit trail", () => {
  it("creates scoped, expiring keys, records every change as the operator's, and shows it with `audit`", () => {
    const email = "audited@example.test";
    expect(run(["account", "create", "--email", email, "--password-stdin"], "first-long-password\n").status).toBe(0);
    const key = run(["key", "create", "--email", email, "--name", "dashboard", "--scope", "usage:read", "--expires", "90d"]);
    expect(key.status, key.stderr).toBe(0);
    expect(key.stdout).toMatch(/^iccid_[0-9A-Za-z]{28}\n$/);
    expect(run(["account", "plan", "--email", email, "standard"]).status).toBe(0);
    expect(run(["account", "subscription", "--email", email, "--status", "past_due"]).status).toBe(0);
    expect(run(["account", "password", "--email", email, "--password-stdin"], "second-long-password\n").status).toBe(0);
    const csv = join(dir, "prefixes.csv");
    writeFileSync(csv, "894410,Our MVNO\n");
    expect(run(["issuers", "import", csv]).status).toBe(0);

    const trail = run(["audit", "--email", email, "--json"]);
    expect(trail.status, trail.stderr).toBe(0);
    const events = JSON.parse(trail.stdout) as Array<Record<string, unknown>>;
    expect(events.map((e) => e.action)).toEqual(["password.changed", "subscription.changed", "plan.changed", "key.created", "account.created"]);
    for (const e of events) expect(e).toMatchObject({ actor: operator, ip: null, user_agent: null });
    expect(events[3]!.target).toMatch(/^key_/);
    for (const secret of [key.stdout.trim(), "first-long-password", "second-long-password"]) expect(trail.stdout).not.toContain(secret);

    // Without --email: every event, the server-wide prefix import among them; one line each when not JSON.
    const everything = run(["audit"]);
    const lines = everything.stdout.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d:]+Z\\tprefixes\\.imported\\toperator:${operator.id}\\t-\\t-\\t-$`));
    expect(lines).toHaveLength(6);
    expect(run(["audit", "--since", "1h"]).stdout.trim().split("\n")).toHaveLength(6);
    expect(run(["audit", "--since", "2099-01-01"]).stdout).toBe("");
    expect(run(["audit", "--since", "2099-01-01", "--json"]).stdout).toBe("[]\n");
    expect(run(["audit", "--limit", "2"]).stdout.trim().split("\n")).toEqual(lines.slice(0, 2));
    expect(JSON.parse(run(["audit", "--email", email, "--limit", "1", "--json"]).stdout)).toEqual(events.slice(0, 1));

    const list = run(["audit", "--email", "nobody@example.test"]);
    expect(list.status).toBe(1);
    expect(list.stderr).toMatch(/no account with email nobody@example.test/);
  });

  it("records a removal of issuer prefixes as the operator's, server-wide, and not one that removed nothing", () => {
    const csv = join(dir, "removable.csv");
    writeFileSync(csv, "8944999,Removable MVNO\n");
    expect(run(["issuers", "import", csv]).status).toBe(0);
    expect(run(["issuers", "remove", "8944999"]).stderr).toMatch(/^removed 1 prefix;/);
    expect(newest()).toMatchObject({ action: "prefixes.removed", actor: operator, ip: null, user_agent: null });
    const before = run(["audit", "--json"]).stdout;
    expect(run(["issuers", "remove", "8944999"]).stderr).toMatch(/^removed 0 prefixes \(1 was not imported\);/);
    expect(run(["audit", "--json"]).stdout).toBe(before);
  });

  it("records a plan set as the operator's, server-wide, with the plan's name, and not one that changed nothing", () => {
    expect(run(["plan", "set", "audited-pro", "--rate-limit", "100", "--window", "60", "--monthly-lookups", "5000"]).status).toBe(0);
    expect(newest()).toMatchObject({ action: "plans.set", actor: operator, ip: null, user_agent: null, target: "audited-pro" });
    const before = run(["audit", "--json"]).stdout;
    expect(run(["plan", "set", "audited-pro", "--rate-limit", "100"]).status).toBe(0);
    expect(run(["audit", "--json"]).stdout).toBe(before);
    expect(run(["plan", "set", "audited-pro", "--monthly-lookups", "6000"]).status).toBe(0);
    expect(JSON.parse(run(["audit", "--json"]).stdout)).toHaveLength(JSON.parse(before).length + 1);
    expect(newest()).toMatchObject({ action: "plans.set", target: "audited-pro" });
  });

  it("refuses a bad --scope, --since (2) or an --expires the service refuses (1, naming expires_at)", () => {
    const email = "refusals@example.test";
    expect(run(["account", "create", "--email", email]).status).toBe(0);
    const scope = run(["key", "create", "--email", email, "--scope", "admin"]);
    expect(scope.status).toBe(2);
    expect(scope.stderr).toMatch(/--scope/);
    for (const expires of ["2000d", "2001-01-01T00:00:00Z", "whenever"]) {
      const r = run(["key", "create", "--email", email, "--expires", expires]);
      expect(r.status, expires).toBe(1);
      expect(r.stderr, expires).toMatch(/^iccid-server: .*expires_at/);
    }
    const since = run(["audit", "--since", "last week"]);
    expect(since.status).toBe(2);
    expect(since.stderr).toMatch(/--since must be/);
    for (const limit of ["0", "-3", "ten", "1.5"]) expect(run(["audit", "--limit", limit])).toMatchObject({ status: 2, stderr: expect.stringMatching(/--limit must be a whole number/) });
  });

  it("deletes events older than the retention before showing the rest", async () => {
    const store = openStore(db);
    try {
      await store.insertAuditEvent({
        id: "evt_old0000000000000000",
        account_id: null,
        at: Date.now() - 3 * DAY,
        action: "prefixes.imported",
        actor_type: "operator",
        actor_id: null,
        ip: null,
        user_agent: null,
        target: null,
        attempts: null,
      });
    } finally {
      await store.close();
    }
    expect(run(["audit", "--json"]).stdout).toContain("evt_old0000000000000000");
    const kept = JSON.parse(run(["audit", "--json", "--audit-retention-days", "2"]).stdout) as Array<{ id: string }>;
    expect(kept.map((e) => e.id)).not.toContain("evt_old0000000000000000");
    expect(kept.length).toBeGreaterThan(0);
    // Gone from the store, not just from the listing.
    expect(run(["audit", "--json"]).stdout).not.toContain("evt_old0000000000000000");
  });
});
