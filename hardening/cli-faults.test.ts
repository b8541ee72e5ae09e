import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses, ownerCredentials, serverCommand, startServerProcess } from "@iccid/server/testing";
import { formatApiKey } from "@iccid/core";
import { nthIccid } from "./support.js";

// The real built `iccid` against a server killed mid-batch, one that answers garbage and one that hangs.
const CLI = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url));
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-cli-faults-"));
});
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

function iccid(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, HOME: dir, ICCID_CONFIG_DIR: join(dir, "config"), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("the CLI under server faults", () => {
  it("resumes a batch cut short by a killed server to exactly one output row per input row", async () => {
    const rows = 400_000;
    const input = join(dir, "sims.csv");
    const output = join(dir, "out.csv");
    writeFileSync(input, ["row,iccid", ...Array.from({ length: rows }, (_, i) => `${i},${i % 997 === 0 ? "12AB" : nthIccid(i)}`)].join("\n") + "\n");
    const db = join(dir, "resume.db");
    serverCommand(db, ["migrate"]); // plan set changes a database; it does not make one
    serverCommand(db, ["plan", "set", "standard", "--rate-limit", "100000", "--window", "60", "--monthly-lookups", "10000000"]);
    let server = await startServerProcess(db);
    const { key } = await ownerCredentials(server);
    const run = iccid(["batch", input, "--out", output, "--concurrency", "2"], { ICCID_API_KEY: key, ICCID_BASE_URL: server.url });
    let finished = false;
    void run.then(() => (finished = true));
    // Kill the server as soon as the first rows are out, so that the batch is cut well short of its end.
    while ((!existsSync(output) || statSync(output).size < 10_000) && !finished) await new Promise((resolve) => setTimeout(resolve, 5));
    server.child.kill("SIGKILL");
    const cut = await run;
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/--resume/);
    const written = readFileSync(output, "utf8").trimEnd().split("\n").length - 1;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(rows);

    // Back on a fresh ephemeral port: the old one may have gone to another process in the meantime.
    server = await startServerProcess(db);
    const resumed = await iccid(["batch", input, "--out", output, "--resume"], { ICCID_API_KEY: key, ICCID_BASE_URL: server.url });
    expect(resumed.code, resumed.stderr).toBe(3); // some rows are malformed on purpose: exit 3, not an error
    const lines = readFileSync(output, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(rows + 1);
    for (let i = 1; i <= rows; i++) expect(lines[i]!.startsWith(`${i - 1},`), `row ${i}`).toBe(true);
    server.child.kill("SIGTERM");
    await server.exited;
  });

  it("says clearly when the server answers garbage, and exits 1", async () => {
    const fake = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("<html>proxy error</html>"));
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const r = await iccid(["lookup", "89441000000000000018"], { ICCID_API_KEY: formatApiKey("d".repeat(22)), ICCID_BASE_URL: url });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/iccid: .*(response|JSON|contract)/i);
    expect(r.stdout).toBe("");
    await new Promise((resolve) => fake.close(resolve));
  });

  it("gives up on a server that never answers after --timeout, and exits 1 with a clear message", async () => {
    const hang = createServer(() => {});
    await new Promise<void>((resolve) => hang.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
    const started = Date.now();
    const r = await iccid(["lookup", "89441000000000000018", "--timeout", "1"], { ICCID_API_KEY: formatApiKey("e".repeat(22)), ICCID_BASE_URL: url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/timed out|timeout/i);
    // Three 1 s attempts plus start-up, with room for a busy machine; one attempt at the 30 s default is more.
    expect(Date.now() - started).toBeLessThan(25_000);
    hang.closeAllConnections();
    await new Promise((resolve) => hang.close(resolve));
  });
});
