import { execFile } from "node:child_process";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccidFor } from "./iccids.js";

// Runs the two SDK examples in /examples as a user would (a child process, env for key and URL) against a
// real server, so that they cannot rot.

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const runner = join(repo, "packages/sdk/scripts/run-example.mjs");
let server: TestServer;
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(example: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [runner, join(repo, "examples", example), ...args],
      { cwd: repo, env: { ...process.env, ...env }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), "iccid-examples-"));
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

// Each run loads the TypeScript compiler to strip types (≈ 3 s on a small machine): generous time limits.
const SLOW = { timeout: 90_000 };

describe("examples/sdk-lookup.ts", SLOW, () => {
  it("prints a decoded ICCID", async () => {
    const result = await run("sdk-lookup.ts", ["8944 1000 0000 0000 0018"], { ICCID_API_KEY: server.owner.apiKey, ICCID_BASE_URL: server.url });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("ICCID    89441000000000000018 (20 digits)");
    expect(result.stdout).toContain("valid    true (Luhn valid)");
    expect(result.stdout).toContain("country  United Kingdom (GB), calling code 44");
  });

  it("explains a revoked or unknown key with exit code 4", async () => {
    const account = await server.createAccount();
    const unknown = account.apiKey.slice(0, -8) + "AAAAAAAA"; // fails the checksum: caught offline
    const result = await run("sdk-lookup.ts", [], { ICCID_API_KEY: unknown, ICCID_BASE_URL: server.url });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("authentication failed (invalid_api_key)");
  });

  it("explains a server that is not running with exit code 1", async () => {
    // The discard port: privileged and never handed out as an ephemeral port, so nothing listens there. (The
    // port of a stopped test server could be taken by another process while the example starts up.)
    const url = "http://127.0.0.1:9";
    const result = await run("sdk-lookup.ts", [], { ICCID_API_KEY: server.owner.apiKey, ICCID_BASE_URL: url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("could not reach 127.0.0.1:9: connection refused");
  });
});

describe("examples/sdk-stream.ts", SLOW, () => {
  it("streams a file to CSV in input order", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => (i === 1234 ? "12AB" : iccidFor(i)));
    const file = join(dir, "sims.txt");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const account = await server.createAccount();
    const result = await run("sdk-stream.ts", [file], { ICCID_API_KEY: account.apiKey, ICCID_BASE_URL: server.url });
    expect(result.code).toBe(0);
    const rows = result.stdout.trimEnd().split("\n");
    expect(rows[0]).toBe("index,input,iccid,valid,country,issuer,error");
    expect(rows).toHaveLength(3001);
    rows.slice(1).forEach((row, i) => expect(row.startsWith(`${i},${lines[i]},`)).toBe(true));
    expect(rows[1235]).toBe("1234,12AB,,,,,invalid_mii");
    expect(result.stderr).toContain("3000 done, 1 failed, 3 requests");
    expect(result.stderr).toContain("finished");
  });

  it("streams 10,000 generated numbers when given no file", async () => {
    const account = await server.createAccount();
    const result = await run("sdk-stream.ts", [], { ICCID_API_KEY: account.apiKey, ICCID_BASE_URL: server.url });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(10_001);
    expect(result.stderr).toContain("10000 done, 20 failed, 10 requests");
  });
});
