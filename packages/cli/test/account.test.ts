import { readFileSync, statSync, writeFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccid, iccidOnTty, mistyped, tempDir } from "./harness.js";

const UK = "89441000000000000018";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
});
afterAll(() => server?.close());

const readConfig = (dir: string) => JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));

describe("login, keys, logout", () => {
  it("logs in from stdin, keeps the session in a 0600 config, creates, lists and revokes keys, logs out", async () => {
    const account = await server.createAccount();
    const configDir = tempDir();
    const env = { ICCID_BASE_URL: server.url, ICCID_CONFIG_DIR: configDir };

    const login = await iccid(["login", "--email", account.email, "--password-stdin"], { env, input: account.password + "\n" });
    expect(login.code).toBe(0);
    expect(login.stdout).toBe("");
    expect(login.stderr).toContain(`as ${account.email}`);
    expect(statSync(join(configDir, "config.json")).mode & 0o777).toBe(0o600);
    expect(readConfig(configDir).session.base_url).toBe(server.url);
    expect(readdirSync(configDir)).toEqual(["config.json"]); // no temp file left behind

    const created = await iccid(["keys", "create", "--name", "laptop", "--save"], { env });
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^iccid_[0-9A-Za-z]{28}$/);
    expect(readConfig(configDir).api_key).toBe(key);
    expect(created.stderr).not.toContain(key); // the note shows it masked

    // The saved key works for lookups without any flag or variable.
    expect((await iccid(["lookup", UK], { env })).code).toBe(0);

    const list = await iccid(["keys", "list", "--json"], { env });
    const keys = JSON.parse(list.stdout) as { id: string; name: string | null }[];
    const laptop = keys.find((k) => k.name === "laptop")!;
    expect(laptop).toBeDefined();
    expect(list.stdout).not.toContain(key);

    const piped = await iccid(["keys", "list"], { env });
    expect(piped.stdout.split("\n").filter(Boolean).every((line) => line.split("\t").length === 8)).toBe(true);

    // Logged in, an id that is not one is a usage error (2) naming the argument, never an "unexpected error".
    for (const id of ["..", ".", "", "key_../x"]) {
      const wrong = await iccid(["keys", "revoke", id], { env });
      expect(wrong.code, id).toBe(2);
      expect(wrong.stderr, id).toMatch(/^iccid: usage error: .*argument 'id'\. not a key id/);
    }
    expect((await iccid(["keys", "revoke", laptop.id], { env })).code).toBe(0);
    expect((await iccid(["lookup", UK], { env })).code).toBe(4);

    const logout = await iccid(["logout"], { env });
    expect(logout.code).toBe(0);
    expect(readConfig(configDir).session).toBeUndefined();
    const after = await iccid(["keys", "list"], { env });
    expect(after.code).toBe(4);
    expect(after.stderr).toContain("iccid login");
  });

  it("logout --all ends every session of the account: another machine's login is ended too", async () => {
    const account = await server.createAccount();
    const here = { ICCID_BASE_URL: server.url, ICCID_CONFIG_DIR: tempDir() };
    const there = { ICCID_BASE_URL: server.url, ICCID_CONFIG_DIR: tempDir() };
    for (const env of [here, there]) expect((await iccid(["login", "--email", account.email, "--password-stdin"], { env, input: account.password + "\n" })).code).toBe(0);
    const all = await iccid(["logout", "--all"], { env: here });
    expect(all).toMatchObject({ code: 0, stdout: "" });
    expect(all.stderr).toContain("everywhere");
    expect(readConfig(here.ICCID_CONFIG_DIR).session).toBeUndefined();
    const elsewhere = await iccid(["keys", "list"], { env: there });
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.stderr).toContain("iccid login");
  });

  it("a wrong password is 4 and stores nothing", async () => {
    const configDir = tempDir();
    const run = await iccid(["login", "--email", server.owner.email, "--password-stdin"], {
      env: { ICCID_BASE_URL: server.url, ICCID_CONFIG_DIR: configDir },
      input: "wrong password",
    });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("invalid_credentials");
    expect(() => statSync(join(configDir, "config.json"))).toThrow();
  });

  it("asks for the password on a terminal without echoing it", async () => {
    const account = await server.createAccount({ password: "correct horse battery" });
    const configDir = tempDir();
    // `script` feeds its stdin to the pty; the CLI reads it in raw mode, echo off.
    const run = await iccidOnTty(["login", "--email", account.email], {
      env: { ICCID_BASE_URL: server.url, ICCID_CONFIG_DIR: configDir },
      input: "correct horse battery\r",
    });
    expect(run.stdout).toContain("Password:");
    expect(run.stdout).toContain(`as ${account.email}`);
    expect(run.stdout.split("Password:")[1]).not.toContain("correct horse");
    expect(run.code).toBe(0);
  });

  it("without a terminal and without --password-stdin, login is a usage error", async () => {
    const run = await iccid(["login", "--email", "a@example.test"], { env: { ICCID_BASE_URL: server.url } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--password-stdin");
  });
});

describe("config", () => {
  it("sets, gets, lists (key masked) and unsets", async () => {
    const configDir = tempDir();
    const env = { ICCID_CONFIG_DIR: configDir };
    expect((await iccid(["config", "set", "api_key", server.owner.apiKey], { env })).code).toBe(0);
    expect((await iccid(["config", "set", "base_url", server.url + "/"], { env })).code).toBe(0);
    expect(statSync(join(configDir, "config.json")).mode & 0o777).toBe(0o600);
    expect((await iccid(["config", "get", "api_key"], { env })).stdout.trim()).toBe(server.owner.apiKey);
    expect((await iccid(["config", "get", "base_url"], { env })).stdout.trim()).toBe(server.url);
    const list = await iccid(["config", "list"], { env });
    expect(list.stdout).not.toContain(server.owner.apiKey);
    expect(list.stdout).toContain(`api_key=${server.owner.apiKey.slice(0, 10)}…${server.owner.apiKey.slice(-4)}`);
    expect(list.stdout).toContain(`base_url=${server.url}`);
    // Configured key and URL are enough for a lookup.
    expect((await iccid(["lookup", UK], { env })).code).toBe(0);
    expect((await iccid(["config", "unset", "api_key"], { env })).code).toBe(0);
    expect((await iccid(["config", "get", "api_key"], { env })).code).toBe(1);
  });

  it("refuses bad values and unknown keys (2)", async () => {
    const env = { ICCID_CONFIG_DIR: tempDir() };
    const badKey = await iccid(["config", "set", "api_key", "iccid_nope"], { env });
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain("api_key must be");
    expect((await iccid(["config", "set", "base_url", "ftp://x"], { env })).code).toBe(2);
    expect((await iccid(["config", "set", "colour", "on"], { env })).code).toBe(2);
  });

  it("a hand-broken config file is reported with the field's name", async () => {
    const configDir = tempDir();
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, "config.json"), JSON.stringify({ base_url: 42 }));
    const run = await iccid(["lookup", UK], { env: { ICCID_CONFIG_DIR: configDir, ICCID_API_KEY: server.owner.apiKey } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/config\.json: field "base_url" must be/);
    writeFileSync(join(configDir, "config.json"), "{ not json");
    expect((await iccid(["config", "list"], { env: { ICCID_CONFIG_DIR: configDir } })).stderr).toContain("not valid JSON");
  });

  it("precedence: --api-key > ICCID_API_KEY > config, and --base-url > ICCID_BASE_URL > config", async () => {
    const other = await server.createAccount();
    const configDir = tempDir();
    writeFileSync(join(configDir, "config.json"), JSON.stringify({ api_key: other.apiKey, base_url: "http://127.0.0.1:9" }));
    const env = { ICCID_CONFIG_DIR: configDir };
    // The config's base URL is unreachable: the variable must win over it, and the flag over both.
    expect((await iccid(["lookup", UK], { env })).code).toBe(1);
    expect((await iccid(["lookup", UK], { env: { ...env, ICCID_BASE_URL: server.url } })).code).toBe(0);
    expect((await iccid(["lookup", UK, "--base-url", server.url], { env: { ...env, ICCID_BASE_URL: "http://127.0.0.1:9" } })).code).toBe(0);

    // A mistyped key shows which source it came from, proving the order.
    const typo = mistyped(server.owner.apiKey);
    const fromEnv = await iccid(["lookup", UK, "--base-url", server.url], { env: { ...env, ICCID_API_KEY: typo } });
    expect(fromEnv.stderr).toContain("from ICCID_API_KEY");
    const fromFlag = await iccid(["lookup", UK, "--base-url", server.url, "--api-key", typo], { env: { ...env, ICCID_API_KEY: other.apiKey } });
    expect(fromFlag.stderr).toContain("from --api-key");
    const ok = await iccid(["lookup", UK, "--base-url", server.url, "--api-key", other.apiKey], { env: { ...env, ICCID_API_KEY: typo } });
    expect(ok.code).toBe(0);
  });
});

describe("validate", () => {
  it("works offline with no key: 0 when all valid, 3 when any is not (as for lookup and batch; 1 stays an error)", async () => {
    const env = { ICCID_BASE_URL: "http://127.0.0.1:9", ICCID_CONFIG_DIR: tempDir() };
    const ok = await iccid(["validate", UK, "8944-1000-0000-0000-0018"], { env });
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim().split("\n").map((l) => l.split("\t")[2])).toEqual(["true", "true"]);
    const bad = await iccid(["validate", UK, "89441000000000000019", "--json"], { env });
    expect(bad.code).toBe(3);
    expect(JSON.parse(bad.stdout).map((r: { valid?: boolean }) => r.valid)).toEqual([true, false]);
    const malformed = await iccid(["validate", "12345"], { env });
    expect(malformed.code).toBe(3);
  });

  it("validate - reads the ICCIDs from stdin, one per line, as lookup - does", async () => {
    const env = { ICCID_CONFIG_DIR: tempDir() };
    const run = await iccid(["validate", "-", "--output", "csv"], { env, input: `${UK}\n\n 8944 1000 0000 0000 0019 \n` });
    expect(run.code).toBe(3);
    const rows = run.stdout.trimEnd().split("\n").map((line) => line.split(","));
    expect(rows.slice(1).map((row) => [row[1], row[2]])).toEqual([[UK, "true"], ["89441000000000000019", "false"]]);
    const empty = await iccid(["validate", "-"], { env, input: "" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^iccid: error: no ICCIDs: stdin was empty\n$/);
  });
});
