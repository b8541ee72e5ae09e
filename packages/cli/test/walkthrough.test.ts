import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cleanEnv, EXAMPLES, REPO_ROOT, serverEnv } from "./harness.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
});
afterAll(() => server?.close());

/** Runs the script asynchronously: the server lives in this process, so its event loop must keep turning. */
function runScript(path: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn("bash", [path], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

it("examples/cli-walkthrough.sh runs end to end against a real server", async () => {
  const run = await runScript(join(EXAMPLES, "cli-walkthrough.sh"), cleanEnv(serverEnv(server.url, server.owner.apiKey)));
  expect(run.stderr).not.toMatch(/iccid: error/);
  expect(run.status).toBe(0);
  expect(run.stdout).toContain("89441000000000000018\t89441000000000000018\ttrue"); // validate, piped
  expect(run.stdout).toContain('"country": {'); // lookup --json
  expect(run.stdout).toMatch(/^iccid,customer,note,lookup_iccid,valid/m); // head of results.csv
  expect(run.stdout).toMatch(/Quota\s+\d+ of 10,000,000 lookups used/);
  const out = /Results are in (\S+)/.exec(run.stderr)![1]!;
  expect(existsSync(join(out, "failed.csv"))).toBe(true);
  expect(readFileSync(join(out, "results.csv"), "utf8").trimEnd().split("\n")).toHaveLength(21);
});
