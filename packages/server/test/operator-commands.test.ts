import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses, onTerminal, SERVER_BIN, startServerProcess, stopServerProcess } from "../test-support/index.js";
import { call, sessionCookie } from "./http.js";

// `plan set|list`, `account plan`, `account password` through the built iccid-server on a temp database.
let dir: string;
let db: string;

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [SERVER_BIN, ...args], { input, encoding: "utf8", env: { ...process.env, ICCID_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command on a terminal, as an operator types it: its output, CRLFs made LFs. */
function runOnTty(args: string[], columns?: number): string {
  const [command, argv] = onTerminal([process.execPath, SERVER_BIN, ...args], columns);
  return spawnSync(command, argv, { encoding: "utf8", env: { ...process.env, ICCID_DB: db } }).stdout.replace(/\r\n/g, "\n");
}

const plans = () => JSON.parse(run(["plan", "list", "--json"]).stdout) as Array<Record<string, unknown>>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-ops-"));
  db = join(dir, "iccid.db");
});
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

describe("operator commands", () => {
  // Some fifteen runs of the binary, a few seconds each on a busy 2-core machine.
  it("read or change no database where there is none, and make none: only migrate, start and import do", { timeout: 180_000 }, () => {
    const missing = `iccid-server: no database at ${db}: check --db or ICCID_DB (\`iccid-server migrate\` or \`start\` makes a new one)\n`;
    const prefixes = join(tmpdir(), `iccid-ops-prefixes-${process.pid}.csv`);
    writeFileSync(prefixes, "prefix,name\n8944999,Ops Telecom\n");
    const changes = [["plan", "set", "pro", "--rate-limit", "1200", "--window", "60", "--monthly-lookups", "1000000"], ["account", "create", "--email", "ops@example.com"], ["issuers", "import", prefixes]];
    for (const args of [["plan", "list"], ["account", "list"], ["audit"], ["export"], ["issuers", "list"], ["key", "create", "--email", "ops@example.com"], ...changes]) {
      expect(run(args)).toEqual({ status: 1, stdout: "", stderr: missing });
    }
    rmSync(prefixes);
    // In another folder, without --db: the default ./data/iccid.db is named as the full path looked at.
    const { ICCID_DB: _unset, ...withoutDb } = process.env;
    const elsewhere = spawnSync(process.execPath, [SERVER_BIN, ...changes[0]!], { cwd: dir, encoding: "utf8", env: withoutDb });
    expect(elsewhere).toMatchObject({ status: 1, stderr: `iccid-server: no database at ${join(dir, "data", "iccid.db")}: check --db or ICCID_DB (\`iccid-server migrate\` or \`start\` makes a new one)\n` });
    // A mistyped folder is the same mistake, and no folder is made for it.
    expect(run(["account", "list", "--db", join(dir, "dat", "iccid.db")]).status).toBe(1);
    // An import whose file cannot be read says why in words, before it makes a database.
    expect(run(["issuers", "import", join(dir, "prefixes.csv")]).stderr).toBe(`iccid-server: cannot read ${join(dir, "prefixes.csv")}: no such file\n`);
    expect(run(["import", dir]).stderr).toBe(`iccid-server: cannot read ${dir}: is a folder\n`);
    expect(readdirSync(dir)).toEqual([]);

    const made = run(["migrate"]);
    expect(made).toMatchObject({ status: 0, stdout: "" });
    // Each migration is named, from which schema version to which (a new file starts at 0).
    expect(made.stderr).toMatch(new RegExp(`^migrated the database at ${db.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} from schema version 0 to \\d+\n$`));
    expect(existsSync(db)).toBe(true);
    expect(run(["migrate"])).toEqual({ status: 0, stdout: "", stderr: `the database at ${db} is up to date\n` });
  });

  it("list plans, starting with the documented default", () => {
    expect(plans()).toEqual([{ name: "standard", rate_limit: 600, window_seconds: 60, monthly_lookups: 100_000 }]);
    expect(run(["plan", "list"]).stdout).toBe("standard\t600\t60\t100000\n");
    // On a terminal, under a header.
    expect(runOnTty(["plan", "list"])).toBe("NAME      REQUESTS  WINDOW (S)  MONTHLY LOOKUPS\nstandard  600       60          100000\n");
    // On a terminal too narrow for the lines, each is cut at its width, ending in "…", instead of wrapping.
    expect(runOnTty(["plan", "list"], 30)).toBe("NAME      REQUESTS  WINDOW (S…\nstandard  600       60       …\n");
  });

  it("create a plan only with all its numbers, and change one number keeping the others", () => {
    const partialNew = run(["plan", "set", "pro", "--rate-limit", "1200"]);
    expect(partialNew.status).toBe(2);
    expect(partialNew.stderr).toMatch(/plan pro does not exist yet: a new plan needs .*\(missing --window, --monthly-lookups\)/);
    expect(plans().map((p) => p.name)).toEqual(["standard"]);

    const created = run(["plan", "set", "pro", "--rate-limit", "1200", "--window", "60", "--monthly-lookups", "1000000"]);
    expect(created).toMatchObject({ stdout: "", stderr: "plan pro: 1,200 requests / 60 s, 1,000,000 lookups / month\n" });

    expect(run(["plan", "set", "pro", "--monthly-lookups", "2000000"]).status).toBe(0);
    expect(plans()).toContainEqual({ name: "pro", rate_limit: 1200, window_seconds: 60, monthly_lookups: 2_000_000 });

    const nothing = run(["plan", "set", "pro"]);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toMatch(/nothing to change/);
    expect(run(["plan", "set", "pro", "--window", "0"]).status).toBe(2);
  });

  it("move an account to another plan, which the running server then applies", async () => {
    // A plan of its own, so that this test does not lean on the one before.
    expect(run(["plan", "set", "bulk", "--rate-limit", "1200", "--window", "60", "--monthly-lookups", "2000000"]).status).toBe(0);
    expect(run(["account", "create", "--email", "buyer@example.test"]).status).toBe(0);
    const unknown = run(["account", "plan", "--email", "buyer@example.test", "platinum"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/unknown plan platinum/);
    expect(run(["account", "plan", "--email", "nobody@example.test", "bulk"]).stderr).toMatch(/no account with email/);

    const moved = run(["account", "plan", "--email", "buyer@example.test", "bulk"]);
    expect(moved).toMatchObject({ stdout: "", stderr: "buyer@example.test: plan bulk: 1,200 requests / 60 s, 2,000,000 lookups / month\n" });
    const listed = JSON.parse(run(["account", "list", "--json"]).stdout) as Array<{ email: string; plan: string }>;
    expect(listed.find((a) => a.email === "buyer@example.test")?.plan).toBe("bulk");

    const key = run(["key", "create", "--email", "buyer@example.test"]).stdout.trim();
    const server = await startServerProcess(db);
    try {
      const usage = await call(server.url, "GET", "/api/v1/usage", { key });
      expect(usage.body.subscription.plan).toBe("bulk");
      expect(usage.body.quota.limit).toBe(2_000_000);
      expect(usage.headers["ratelimit-policy"]).toMatch(/q=1200;w=60/);
    } finally {
      await stopServerProcess(server);
    }
  });

  it("reset a password: the new one signs in, the old one and the old sessions no longer do", async () => {
    run(["account", "create", "--email", "forgetful@example.test", "--password-stdin"], "first-password\n");
    const server = await startServerProcess(db);
    try {
      const signIn = (password: string) => call(server.url, "POST", "/api/v1/session", { body: { email: "forgetful@example.test", password } });
      const before = await signIn("first-password");
      expect(before.status).toBe(201);
      const oldSession = sessionCookie(before);

      expect(run(["account", "password", "--email", "forgetful@example.test", "--password-stdin"], "short\n").status).toBe(2);
      const changed = run(["account", "password", "--email", "forgetful@example.test", "--password-stdin"], "second-password\n");
      // Nothing generated, so no data: the status is for the operator, on stderr.
      expect(changed.stdout).toBe("");
      expect(changed.stderr).toBe("forgetful@example.test: password changed, sessions ended, sign-in lockout lifted, API keys kept\n");
      expect((await call(server.url, "GET", "/api/v1/session", { cookie: oldSession })).status).toBe(401);
      expect((await signIn("first-password")).status).toBe(401);
      expect((await signIn("second-password")).status).toBe(201);

      // A generated password is the command's data: alone on stdout, so PW=$(iccid-server account password …) holds it.
      const generated = run(["account", "password", "--email", "forgetful@example.test"]);
      expect(generated.status).toBe(0);
      expect(generated.stdout).toMatch(/^[0-9A-Za-z]{20}\n$/);
      const password = generated.stdout.trim();
      expect(generated.stderr).not.toContain(password);
      expect(generated.stderr).toMatch(/password changed/);
      expect((await signIn(password)).status).toBe(201);

      // Asked to, the reset revokes the account's keys too: refused by the running server within 1 s.
      const key = run(["key", "create", "--email", "forgetful@example.test"]).stdout.trim();
      const lookup = () => call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } });
      expect((await lookup()).status).toBe(200);
      const revoking = run(["account", "password", "--email", "forgetful@example.test", "--password-stdin", "--revoke-keys"], "third-password\n");
      expect(revoking.stderr).toBe("forgetful@example.test: password changed, sessions ended, sign-in lockout lifted, 1 API key revoked\n");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await lookup()).body.code).toBe("revoked_api_key");
    } finally {
      await stopServerProcess(server);
    }
  });

  for (const redis of [undefined, process.env.ICCID_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"]) {
    it(`a new password lifts the sign-in lockout of a running server (${redis ? "throttle in Redis" : "throttle in memory"})`, async () => {
      const email = `locked-${redis ? "redis" : "memory"}-${process.pid}-${Date.now()}@example.test`;
      expect(run(["account", "create", "--email", email, "--password-stdin"], "first-password\n").status).toBe(0);
      // On the machine's Redis under a prefix of this run's: `iccid:` is an instance's, and the address's count
      // of failed sign-ins must not carry over from another run.
      const prefix = `iccid-test:operator-${process.pid}-${Date.now()}`;
      const server = await startServerProcess(db, redis ? { args: ["--redis", redis, "--redis-prefix", prefix] } : {});
      try {
        const signIn = (password: string) => call(server.url, "POST", "/api/v1/session", { body: { email, password } });
        for (let i = 0; i < 5; i++) expect((await signIn("a-wrong-guess")).status).toBe(401);
        const locked = await signIn("first-password");
        expect(locked.status).toBe(429);
        expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);

        expect(run(["account", "password", "--email", email, "--password-stdin"], "second-password\n").status).toBe(0);
        expect((await signIn("second-password")).status).toBe(201);
        // The old password is refused as wrong, not as locked out: the count started afresh.
        expect((await signIn("first-password")).status).toBe(401);
      } finally {
        await stopServerProcess(server);
      }
    });
  }

  it("refuses a plan's rate limit or window below 1 with one rule, one message and the usage exit code", () => {
    const attempts = [
      ["--rate-limit", "-5"],
      ["--rate-limit", "0"],
      ["--rate-limit", "1.5"],
      ["--window", "0"],
      ["--window", "-1"],
    ];
    for (const [flag, value] of attempts) {
      const r = run(["plan", "set", "odd", "--rate-limit", "10", "--window", "60", "--monthly-lookups", "5", flag!, value!]);
      expect(r.status, `${flag} ${value}`).toBe(2);
      expect(r.stderr, `${flag} ${value}`).toBe(`iccid-server: ${flag} must be a whole number ≥ 1 (got "${value}")\n`);
    }
    const negativeQuota = run(["plan", "set", "odd", "--rate-limit", "10", "--window", "60", "--monthly-lookups", "-1"]);
    expect(negativeQuota.status).toBe(2);
    expect(negativeQuota.stderr).toBe('iccid-server: --monthly-lookups must be a whole number ≥ 0 (got "-1")\n');
    expect(plans().map((p) => p.name)).not.toContain("odd");
  });

  it("stops quietly when the reader of its output goes away (`account list | head -1`)", async () => {
    // The reading end is closed before the command writes a byte: its first write meets EPIPE.
    const child = spawn(process.execPath, [SERVER_BIN, "account", "list"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ICCID_DB: db } });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    const [code] = (await once(child, "close")) as [number | null];
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
