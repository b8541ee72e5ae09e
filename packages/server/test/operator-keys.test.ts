import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, killServerProcesses, SERVER_BIN, startServerProcess, type ServerProcess, type TestDatabase } from "../test-support/index.js";
import { call } from "./http.js";

// `key list` and `key revoke` through the built iccid-server, on a SQLite file with one server, or
// (ICCID_TEST_STORE=postgres) on a database of the test's own with two: a key the operator revokes is
// refused by every instance within the grant cache's 1 s, and the revocation is on the account's trail.

let dir: string;
let db: string;
let database: TestDatabase | undefined;
let servers: ServerProcess[] = [];

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [SERVER_BIN, ...args], { input, encoding: "utf8", env: { ...process.env, ICCID_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const lookup = (url: string, key: string) => call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-op-keys-"));
  if (process.env.ICCID_TEST_STORE === "postgres") {
    database = await createTestDatabase(process.env.ICCID_TEST_POSTGRES_URL!);
    db = Object.assign(new URL(process.env.ICCID_TEST_POSTGRES_URL!), { pathname: `/${database.name}` }).toString();
  } else {
    db = join(dir, "iccid.db");
  }
  expect(run(["migrate"]).status).toBe(0);
  expect(run(["account", "create", "--email", "keys@example.test", "--password-stdin"], "long-enough-password\n").status).toBe(0);
  servers = [await startServerProcess(db)];
  if (database) servers.push(await startServerProcess(db));
});
afterAll(async () => {
  killServerProcesses();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the operator's key commands", { timeout: 60_000 }, () => {
  it("key list: the account's keys newest first, as the API lists them, never the keys", () => {
    const first = run(["key", "create", "--email", "keys@example.test", "--name", "ci"]).stdout.trim();
    const second = run(["key", "create", "--email", "keys@example.test", "--scope", "usage:read", "--expires", "90d"]).stdout.trim();
    const listed = JSON.parse(run(["key", "list", "--email", "keys@example.test", "--json"]).stdout) as Array<Record<string, unknown>>;
    expect(listed.map((k) => [k.name, k.scopes, k.revoked_at])).toEqual([
      [null, ["usage:read"], null],
      ["ci", ["lookup", "usage:read"], null],
    ]);
    const rows = run(["key", "list", "--email", "keys@example.test"]).stdout.trim().split("\n").map((line) => line.split("\t"));
    expect(rows.map((r) => [r[0], r[1], r[3], r[2]])).toEqual([
      [listed[0]!.id, "-", "usage:read", "active"],
      [listed[1]!.id, "ci", "lookup,usage:read", "active"],
    ]);
    expect(rows[1]![4]).toBe(`${listed[1]!.prefix}…${listed[1]!.last4}`);
    expect(first.startsWith(String(listed[1]!.prefix)) && first.endsWith(String(listed[1]!.last4))).toBe(true);
    const output = run(["key", "list", "--email", "keys@example.test", "--json"]).stdout + run(["key", "list", "--email", "keys@example.test"]).stdout;
    for (const key of [first, second]) expect(output).not.toContain(key.slice(10, -4));
    expect(run(["key", "list", "--email", "nobody@example.test"])).toMatchObject({ status: 1, stderr: "iccid-server: no account with email nobody@example.test (see `iccid-server account list`)\n" });
  });

  it("key revoke: refused by every instance within 1 s, once on the trail as the operator's; again, or unknown, said so", async () => {
    const key = run(["key", "create", "--email", "keys@example.test", "--name", "to revoke"]).stdout.trim();
    for (const server of servers) expect((await lookup(server.url, key)).status).toBe(200);
    const id = (JSON.parse(run(["key", "list", "--email", "keys@example.test", "--json"]).stdout) as Array<{ id: string; name: string }>).find((k) => k.name === "to revoke")!.id;
    expect(run(["key", "revoke", id])).toMatchObject({ status: 0, stdout: "", stderr: `${id}: revoked\n` });
    // The documented bound: every request sent 1 s or more after the revocation is refused, on every instance.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const server of servers) expect((await lookup(server.url, key)).body.code).toBe("revoked_api_key");
    expect(run(["key", "revoke", id])).toMatchObject({ status: 0, stderr: `${id}: already revoked\n` });
    expect(run(["key", "list", "--email", "keys@example.test"]).stdout).toMatch(new RegExp(`^${id}\tto revoke\trevoked\t`, "m"));
    expect(run(["key", "revoke", "key_doesnotexist"])).toMatchObject({ status: 1, stderr: "iccid-server: no API key key_doesnotexist (see `iccid-server key list --email …`)\n" });
    const trail = JSON.parse(run(["audit", "--email", "keys@example.test", "--json"]).stdout) as Array<{ action: string; target?: string; actor: { type: string } }>;
    expect(trail.filter((e) => e.action === "key.revoked")).toEqual([expect.objectContaining({ target: id, actor: expect.objectContaining({ type: "operator" }) })]);
  });
});
