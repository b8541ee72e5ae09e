import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { damageTablePage, killServerProcesses, ownerCredentials, startServerProcess, stopServerProcess } from "../test-support/index.js";
import { eventually } from "./eventually.js";
import { call } from "./http.js";

// The built server and what happens to its SQLite file: a second server on it, the file deleted while it
// serves, a damaged page.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-sqlite-file-"));
});
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

const lookup = (url: string, key: string) => call(url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } });

describe("the SQLite file", { timeout: 120_000 }, () => {
  it("is served by one server at a time: a second refuses, naming the first; a killed server's lock does not block", async () => {
    const db = join(dir, "one.db");
    const first = await startServerProcess(db);
    await expect(startServerProcess(db)).rejects.toThrow(
      new RegExp(`the database file ${db} is already served by process ${first.child.pid} on \\S+ \\(serving since [0-9T:.Z-]+\\)`),
    );
    expect((await call(first.url, "GET", "/readyz")).status).toBe(200);

    // Killed without a chance to clean up: the next server starts all the same.
    first.child.kill("SIGKILL");
    await first.exited;
    const next = await startServerProcess(db);
    expect((await call(next.url, "GET", "/readyz")).status).toBe(200);
    expect(await stopServerProcess(next)).toBe(0);
    // A server that stopped cleanly does not block either.
    const again = await startServerProcess(db);
    expect(await stopServerProcess(again)).toBe(0);
  });

  it("deleted while serving: /readyz says so (503, never 200), and no request answers 500", async () => {
    const db = join(dir, "deleted.db");
    const server = await startServerProcess(db);
    const { key } = await ownerCredentials(server);
    expect((await lookup(server.url, key)).status).toBe(200);
    for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });

    await eventually(async () => {
      const ready = await call(server.url, "GET", "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body.detail).toBe("The database file was deleted or replaced while the server ran.");
    });
    expect((await lookup(server.url, key)).status).not.toBe(500);
  });

  it("with a damaged page: start refuses it with a clear message instead of serving 500s", async () => {
    const db = join(dir, "damaged.db");
    const server = await startServerProcess(db);
    await ownerCredentials(server);
    expect(await stopServerProcess(server)).toBe(0);

    damageTablePage(db, "accounts");
    await expect(startServerProcess(db)).rejects.toThrow(
      new RegExp(`iccid-server: the database file ${db} fails SQLite's integrity check \\(.+\\): restore it from a backup`),
    );
  });
});
