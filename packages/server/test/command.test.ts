import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses, ownerCredentials, SERVER_BIN, startServerProcess, stopServerProcess } from "../test-support/index.js";
import { eventually } from "./eventually.js";
import { call } from "./http.js";

// The real built `iccid-server` binary, on a temp database and an ephemeral port.
let dir: string;
let db: string;

function run(args: string[], input?: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [SERVER_BIN, ...args], {
    input,
    encoding: "utf8",
    env: { ...process.env, ICCID_DB: db, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const start = () => startServerProcess(db);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-cmd-"));
  db = join(dir, "data", "iccid.db");
});
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

// Each test starts the binary several times over (≈ 2 s apiece on a busy 2-core machine): room for that.
describe("iccid-server", { timeout: 120_000 }, () => {
  it("bootstraps an owner once on first start, serves lookups with the printed key, stops on SIGTERM", async () => {
    const server = await start();
    const { email, password, key } = await ownerCredentials(server);
    expect(email).toBe("owner@localhost");
    expect(password.length).toBeGreaterThanOrEqual(20);

    const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } });
    expect(r.status).toBe(200);
    expect(r.body.issuer.name).toBe("Vodafone plc");
    // On a port other than the clients' default, the banner says how to point the CLI and the SDK at it.
    await server.waitForOutput("stderr", new RegExp(`export ICCID_BASE_URL=http://127\\.0\\.0\\.1:${server.port}\n`));

    // Logs are JSON lines and never carry the secrets printed on the terminal.
    const logs = server.stdout();
    for (const line of logs.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(password);

    expect(await stopServerProcess(server)).toBe(0);
    expect(server.stdout()).toMatch(/"msg":"stopped"/);
    // The owner's trail starts with the server's own acts: the account, then its key.
    const trail = JSON.parse(run(["audit", "--email", email, "--json"]).stdout) as Array<{ action: string; actor: unknown }>;
    expect(trail.map((e) => [e.action, e.actor])).toEqual([
      ["key.created", { type: "system" }],
      ["account.created", { type: "system" }],
    ]);

    const again = await start();
    expect(again.stderr()).not.toMatch(/API key/);
    again.child.kill("SIGINT");
    expect(await again.exited).toBe(0);
  });

  it("manages accounts, subscriptions, plans and keys", async () => {
    const created = run(["account", "create", "--email", "Ops@Example.test", "--password-stdin", "--plan", "standard"], "s3cret-password\n");
    expect(created.status).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^acc_[0-9A-Za-z]{20}$/);

    expect(run(["account", "create", "--email", "ops@example.test", "--password-stdin"], "another-password").status).toBe(1);

    expect(run(["plan", "set", "tiny", "--rate-limit", "2", "--window", "60", "--monthly-lookups", "5"]).status).toBe(0);
    expect(run(["plan", "set", "bad", "--rate-limit", "x", "--window", "60", "--monthly-lookups", "5"]).status).not.toBe(0);

    const sub = run(["account", "subscription", "--email", "ops@example.test", "--status", "past_due"]);
    expect(sub).toMatchObject({ status: 0, stdout: "", stderr: "ops@example.test: past_due\n" });
    expect(run(["account", "subscription", "--email", "ops@example.test", "--status", "paused"]).status).toBe(2);

    const list = run(["account", "list", "--json"]);
    expect(list.status).toBe(0);
    const accounts = JSON.parse(list.stdout) as Array<{ id: string; email: string; status: string; plan: string }>;
    expect(accounts.find((a) => a.id === id)).toMatchObject({ email: "ops@example.test", status: "past_due", plan: "standard" });

    const key = run(["key", "create", "--email", "ops@example.test", "--name", "ci"]);
    expect(key.status).toBe(0);
    expect(key.stdout.trim()).toMatch(/^iccid_[0-9A-Za-z]{28}$/);

    const server = await start();
    try {
      const refused = await call(server.url, "POST", "/api/v1/iccid/lookup", { key: key.stdout.trim(), body: { iccid: "89441000000000000018" } });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("no_active_subscription");
    } finally {
      await stopServerProcess(server);
    }
  });

  it("imports custom issuer prefixes that win over the ITU list", async () => {
    const csv = join(dir, "issuers.csv");
    writeFileSync(csv, "\uFEFFprefix,name,country_iso2\r\n894410,\"Our MVNO, Ltd\",GB\r\n8999901,Private range,de\r\n");
    const imported = run(["issuers", "import", csv]);
    expect(imported.status).toBe(0);
    expect(imported).toMatchObject({ stdout: "", stderr: expect.stringMatching(/^imported 2 prefixes; /) });

    const bad = join(dir, "bad.csv");
    writeFileSync(bad, "894410,Fine\n12345,Wrong prefix\n");
    const refused = run(["issuers", "import", bad]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/line 2: prefix/);

    // An account of its own, so that this test does not depend on the first start in an earlier one.
    expect(run(["account", "create", "--email", "importer@example.test", "--password-stdin"], "importer-password\n").status).toBe(0);
    const key = run(["key", "create", "--email", "importer@example.test"]).stdout.trim();
    const server = await start();
    try {
      const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } });
      expect(r.body.issuer).toEqual({ prefix: "894410", name: "Our MVNO, Ltd", source: "custom", origin: "custom", confidence: "registered", country: { iso2: "GB", name: "United Kingdom" } });
      expect(r.body.data_version).toMatch(/\+custom\.2\./);
    } finally {
      await stopServerProcess(server);
    }
  });

  it("lists, exports and removes custom prefixes, and a running server applies every change without a restart", async () => {
    // Its own account and prefixes, so that it does not depend on the tests before it.
    expect(run(["account", "create", "--email", "lister@example.test", "--password-stdin"], "lister-password\n").status).toBe(0);
    const key = run(["key", "create", "--email", "lister@example.test"]).stdout.trim();
    const own = join(dir, "own.csv");
    writeFileSync(own, "894410,Our MVNO\n8999901,Private range\n");
    expect(run(["issuers", "import", own]).status).toBe(0);
    const issuerOf = async (url: string) =>
      (await call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } })).body.issuer;
    const server = await start();
    try {
      expect(run(["issuers", "remove", "894410", "8999901"]).stderr).toMatch(/^removed 2 prefixes; /);
      expect(run(["issuers", "list"])).toMatchObject({ stdout: "", stderr: "0 custom prefixes\n" });
      await eventually(async () => expect((await issuerOf(server.url)).origin).toBe("itu-e118"));

      const csv = join(dir, "live.csv");
      writeFileSync(csv, 'prefix,name,country_iso2\n8944100,"Live, ""quoted"" MVNO",JE\n');
      expect(run(["issuers", "import", csv]).stderr).toBe("imported 1 prefix; running servers use the change within 1 s\n");
      await eventually(async () => expect(await issuerOf(server.url)).toMatchObject({ prefix: "8944100", name: 'Live, "quoted" MVNO', origin: "custom" }));

      expect(run(["issuers", "list"])).toMatchObject({ stdout: '8944100\tJE\tLive, "quoted" MVNO\n', stderr: "1 custom prefix\n" });
      const exported = run(["issuers", "export"]);
      expect(exported.stdout).toBe('prefix,name,country_iso2\n8944100,"Live, ""quoted"" MVNO",JE\n');
      writeFileSync(csv, exported.stdout);
      expect(run(["issuers", "import", "--replace", csv]).status).toBe(0); // what export writes, import reads back
      expect(run(["issuers", "export"]).stdout).toBe(exported.stdout);

      expect(run(["issuers", "remove", "8944100", "8944999"]).stderr).toMatch(/^removed 1 prefix \(1 was not imported\); /);
      await eventually(async () => expect((await issuerOf(server.url)).origin).toBe("itu-e118"));
      const bad = run(["issuers", "remove", "12345"]);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/prefix must be 4 to 21 digits starting with 89 \(got "12345"\)/);
    } finally {
      await stopServerProcess(server);
    }
  });

  it("takes settings from flags, then ICCID_* variables, and names a bad one", () => {
    const badEnv = run(["start"], undefined, { ICCID_PORT: "eighty" });
    expect(badEnv.status).toBe(2);
    expect(badEnv.stderr).toMatch(/ICCID_PORT/);
    const badFlag = spawnSync(process.execPath, [SERVER_BIN, "start", "--port", "70000"], { encoding: "utf8", env: { ...process.env, ICCID_DB: db } });
    expect(badFlag.status).toBe(2);
    expect(badFlag.stderr).toMatch(/--port/);
    const badTimeout = spawnSync(process.execPath, [SERVER_BIN, "start", "--send-timeout", "0"], { encoding: "utf8", env: { ...process.env, ICCID_DB: db } });
    expect(badTimeout.status).toBe(2);
    expect(badTimeout.stderr).toMatch(/--send-timeout: must be more than 0/);
    const badLimit = run(["start"], undefined, { ICCID_UNSENT_LIMIT_MB: "lots" });
    expect(badLimit.status).toBe(2);
    expect(badLimit.stderr).toMatch(/ICCID_UNSENT_LIMIT_MB: must be a number of MiB/);
    expect(run(["migrate"])).toMatchObject({ stdout: "", stderr: `the database at ${db} is up to date\n` });
  });
});
