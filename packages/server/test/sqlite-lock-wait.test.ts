import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses, ownerCredentials, serverCommand, startServerProcess, type ServerProcess } from "../test-support/index.js";
import { outOfBound, summary, throughFault } from "./stall-load.js";

// SQLite's lock wait is the query timeout: while another process holds the file's write lock, a lookup is
// answered 503 with Retry-After once it has waited that long (here 1 s, not the default 5 s), and every
// 200 is metered exactly once.
const TIMEOUT_S = 1;
const BOUND_MS = TIMEOUT_S * 1000 + 1_500;

let dir: string;
let db: string;
let server: ServerProcess;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-lock-wait-"));
  db = join(dir, "iccid.db");
  serverCommand(db, ["migrate"]); // plan set changes a database; it does not make one
  serverCommand(db, ["plan", "set", "standard", "--rate-limit", "1000000", "--window", "60", "--monthly-lookups", "100000000"]);
  server = await startServerProcess(db, { args: ["--query-timeout", String(TIMEOUT_S)] });
  key = (await ownerCredentials(server)).key;
});
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

describe("a SQLite write lock held past the query timeout", () => {
  it("503 with Retry-After within the timeout, and metered exactly", async () => {
    const answers = await throughFault(server.url, key, { clients: 4, faultMs: TIMEOUT_S * 1000 + 2_000 }, async () => {
      const other = new Database(db);
      other.exec("BEGIN IMMEDIATE");
      return async () => {
        other.exec("ROLLBACK");
        other.close();
      };
    });
    console.log("SQLite write lock:", summary(answers));
    expect(outOfBound(answers, BOUND_MS)).toEqual([]);
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    const answered = answers.filter((a) => a.status === 200).length;
    const reader = new Database(db, { readonly: true });
    try {
      expect(reader.prepare("SELECT coalesce(sum(requests), 0) AS requests, coalesce(sum(lookups), 0) AS lookups FROM usage_counters").get()).toEqual({
        requests: answered,
        lookups: answered,
      });
    } finally {
      reader.close();
    }
  });
});
