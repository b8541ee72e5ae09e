import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses, ownerCredentials, SERVER_BIN, startServerProcess, stopServerProcess } from "../test-support/index.js";
import { call } from "./http.js";

// The first start through the built binary: the owner is made, and its banner printed, only once the
// server listens, so a start that fails before (a port another process holds) leaves no owner behind.
let dir: string;
let db: string;
let holder: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-first-start-"));
  db = join(dir, "data", "iccid.db");
  holder = createServer().listen(0, "127.0.0.1");
  await once(holder, "listening");
});
afterAll(() => {
  killServerProcesses();
  holder.close();
  rmSync(dir, { recursive: true, force: true });
});

const accounts = () => JSON.parse(spawnSync(process.execPath, [SERVER_BIN, "account", "list", "--json", "--db", db], { encoding: "utf8" }).stdout) as unknown[];

describe("the first start", { timeout: 60_000 }, () => {
  it("on a busy port fails naming the port, makes no owner; the next start makes it and prints the banner", async () => {
    const busyPort = (holder.address() as { port: number }).port;
    const failed = spawnSync(process.execPath, [SERVER_BIN, "start", "--port", String(busyPort), "--db", db, "--log-format", "json"], { encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toBe(`iccid-server: port ${busyPort} on 127.0.0.1 is in use by another process: stop it, or choose another with --port or ICCID_PORT\n`);
    expect(failed.stderr).not.toMatch(/password|API key/);
    // The database was made and migrated, with no account in it; each migration is logged, version by version.
    expect(accounts()).toEqual([]);
    const steps = failed.stdout.trim().split("\n").map((line) => JSON.parse(line) as { msg: string; from_version?: number; to_version?: number }).filter((l) => l.msg === "schema migrated");
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.map((l) => [l.from_version, l.to_version])).toEqual(steps.map((_, i) => [i, i + 1]));

    const server = await startServerProcess(db);
    const { email, key } = await ownerCredentials(server);
    expect(email).toBe("owner@localhost");
    expect((await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } })).status).toBe(200);
    expect(await stopServerProcess(server)).toBe(0);
    expect(accounts()).toHaveLength(1);
    // A schema already up to date is not migrated again, and nothing says it was.
    expect(server.stdout()).not.toMatch(/schema migrated/);
  });
});
