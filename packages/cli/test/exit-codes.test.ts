import { startTestServer, type TestServer } from "@iccid/server/testing";
import { formatApiKey } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOneLineError, iccid, iccidIntoHead, mistyped, serverEnv } from "./harness.js";

const UK = "89441000000000000018";
// Well-formed (prefix and checksum) but not a key the server issued.
const UNKNOWN_KEY = formatApiKey("0".repeat(22));

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
});
afterAll(() => server?.close());

describe("exit codes", () => {
  it("0: ok; --help and --version too", async () => {
    expect((await iccid(["lookup", UK], { env: serverEnv(server.url, server.owner.apiKey) })).code).toBe(0);
    const help = await iccid(["batch", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Examples:");
    const version = await iccid(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("every command's --help lists the global options and ends with its examples", async () => {
    const commands = [
      ...["lookup", "eid", "validate", "batch", "usage", "audit", "login", "logout", "keys", "config"].map((c) => [c]),
      ...["list", "create", "revoke", "roll"].map((c) => ["keys", c]),
      ...["set", "get", "list", "unset", "path"].map((c) => ["config", c]),
      [],
    ];
    for (const command of commands) {
      const run = await iccid([...command, "--help"]);
      expect(run.code, command.join(" ")).toBe(0);
      expect(run.stdout, command.join(" ")).toContain("Examples:");
      // A subcommand's help names the options every command takes (a rate-limit wait points to --no-wait).
      for (const flag of ["--api-key", "--base-url", "--timeout", "--no-wait"]) {
        expect(run.stdout, `${command.join(" ")} ${flag}`).toMatch(new RegExp(`^ {2}${flag}\\b`, "m"));
      }
      // Below the label, only examples (indented lines): prose that follows them reads as one of them.
      const below = run.stdout.slice(run.stdout.lastIndexOf("Examples:") + "Examples:".length).split("\n");
      expect(below.filter((line) => /^\S/.test(line)), command.join(" ")).toEqual([]);
    }
  });

  it("a reader that stops early (| head) is not an error", async () => {
    const run = await iccidIntoHead(["validate", ...Array<string>(2000).fill(UK)], 1);
    expect(run.code).toBe(0);
  });

  it("1: the server cannot be reached", async () => {
    const run = await iccid(["lookup", UK], { env: serverEnv("http://127.0.0.1:9", server.owner.apiKey) });
    expect(run.code).toBe(1);
    expectOneLineError(run, /127\.0\.0\.1:9/);
  });

  it("1: a batch whose server cannot be reached says its output holds no rows yet", async () => {
    const run = await iccid(["batch", "-"], { env: serverEnv("http://127.0.0.1:9", server.owner.apiKey), input: `iccid\n${UK}\n` });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("The output holds no rows yet.");
    expect(run.stderr).toMatch(/^iccid: error: could not reach 127\.0\.0\.1:9/m);
  });

  it("2: usage errors (unknown option, missing argument, bad value)", async () => {
    const unknown = await iccid(["lookup", UK, "--bogus"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--bogus'");
    expect((await iccid(["lookup"])).code).toBe(2);
    expect((await iccid(["batch", "x.csv", "--concurrency", "zero"])).code).toBe(2);
    expect((await iccid(["usage", "--from", "yesterday"])).code).toBe(2);
    expect((await iccid(["lookup", UK, "--output", "yaml"])).code).toBe(2);
    expect((await iccid(["nosuchcommand"])).code).toBe(2);
  });

  it("3: some rows failed", async () => {
    const run = await iccid(["lookup", UK, "1234"], { env: serverEnv(server.url, server.owner.apiKey) });
    expect(run.code).toBe(3);
  });

  it("4: no key, a mistyped key (offline), an unknown key, a revoked key, no subscription", async () => {
    const none = await iccid(["lookup", UK], { env: serverEnv(server.url) });
    expect(none.code).toBe(4);
    expectOneLineError(none, /no API key/);

    const typo = await iccid(["lookup", UK, "--api-key", mistyped(server.owner.apiKey)], { env: serverEnv(server.url) });
    expect(typo.code).toBe(4);
    expectOneLineError(typo, /--api-key is not a valid/);

    const unknown = await iccid(["lookup", UK], { env: serverEnv(server.url, UNKNOWN_KEY) });
    expect(unknown.code).toBe(4);
    expectOneLineError(unknown, /invalid_api_key.*request id/);

    const lapsed = await server.createAccount({ status: "canceled" });
    const canceled = await iccid(["lookup", UK], { env: serverEnv(server.url, lapsed.apiKey) });
    expect(canceled.code).toBe(4);
    expectOneLineError(canceled, /no_active_subscription.*request id \S+/);
    // The server's detail says what is wrong, the hint what happens next: the line says each once.
    expect(canceled.stderr).toMatch(/subscription is canceled; lookups resume once the server's operator makes the subscription active again/);
    expect(canceled.stderr).not.toMatch(/not active/);
  });

  it("4: a key revoked through the CLI stops working", async () => {
    const account = await server.createAccount();
    const env = serverEnv(server.url, account.apiKey);
    expect((await iccid(["login", "--email", account.email, "--password-stdin"], { env, input: account.password })).code).toBe(0);
    expect((await iccid(["keys", "revoke", account.keyId], { env })).code).toBe(0);
    const run = await iccid(["lookup", UK], { env });
    expect(run.code).toBe(4);
    // Said once, with what to do: not "revoked … revoked … revoked".
    expectOneLineError(run, /^iccid: error: revoked_api_key: The API key was revoked; create a new one with `iccid keys create --save` \(request id \S+\)\n$/);
  });

  it("5: quota used up, and rate limited", async () => {
    await server.setPlan("one-lookup", { rate_limit: 100, window_seconds: 60, monthly_lookups: 1 });
    const small = await server.createAccount({ plan: "one-lookup" });
    const env = serverEnv(server.url, small.apiKey);
    expect((await iccid(["lookup", UK], { env })).code).toBe(0);
    const over = await iccid(["lookup", UK], { env });
    expect(over.code).toBe(5);
    expectOneLineError(over, /quota_exceeded.*resets at .*request id/);

    // A window longer than the SDK waits for a Retry-After, so the 429 comes straight back.
    await server.setPlan("one-request", { rate_limit: 1, window_seconds: 3600, monthly_lookups: 1000 });
    const slow = await server.createAccount({ plan: "one-request" });
    const slowEnv = serverEnv(server.url, slow.apiKey);
    expect((await iccid(["lookup", UK], { env: slowEnv })).code).toBe(0);
    const limited = await iccid(["lookup", UK], { env: slowEnv });
    expect(limited.code).toBe(5);
    expectOneLineError(limited, /rate_limited/);
  });
});
