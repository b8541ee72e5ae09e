import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_BIN } from "../test-support/index.js";
import { FIXED_YOUNG_GENERATION } from "../test-support/young-generation.js";

// `iccid-server audit` over a long trail (220,000 events, a heavy install's year) on a SQLite file:
// written as it is read, so its memory stays flat however long the trail, into a file and as JSON: the
// whole trail costs at most GROWTH_MIB more than its newest page (holding it all cost about 250 MiB more).
const EVENTS = 220_000;
const GROWTH_MIB = 64;
const MAX_RSS = join(import.meta.dirname, "../test-support/max-rss.cjs");

let dir: string;
let db: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-audit-long-"));
  db = join(dir, "iccid.db");
  expect(spawnSync(process.execPath, [SERVER_BIN, "migrate", "--db", db]).status).toBe(0);
  const sqlite = new Database(db);
  const insert = sqlite.prepare(
    "INSERT INTO audit_events (id, account_id, at, action, actor_type, actor_id, ip, user_agent, target, attempts) VALUES (?, NULL, ?, 'session.failed', 'session', NULL, '203.0.113.7', ?, NULL, NULL)",
  );
  const now = Date.now();
  sqlite.transaction(() => {
    for (let i = 0; i < EVENTS; i++) insert.run(`evt_${String(i).padStart(26, "0")}`, now - i * 60_000, `guesser/${i % 50} (a user agent of some length, as browsers send)`);
  })();
  sqlite.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command with its stdout into a file, as `> file` does: its exit status, peak memory (MiB) and output. */
function audit(args: string[]): { status: number | null; mib: number; out: string } {
  const path = join(dir, "out.txt");
  const fd = openSync(path, "w");
  try {
    const r = spawnSync(process.execPath, [FIXED_YOUNG_GENERATION, "--require", MAX_RSS, SERVER_BIN, "audit", "--db", db, ...args], { stdio: ["ignore", fd, "pipe"], encoding: "utf8" });
    const kib = Number(/max-rss-kib (\d+)/.exec(r.stderr)?.[1]);
    return { status: r.status, mib: kib / 1024, out: readFileSync(path, "utf8") };
  } finally {
    closeSync(fd);
  }
}

describe("the audit listing of a long trail", { timeout: 120_000 }, () => {
  it("into a file: a line an event, in about the memory of one page", () => {
    const page = audit(["--limit", "500"]);
    const r = audit([]);
    expect(r.status).toBe(0);
    expect(r.out.trimEnd().split("\n")).toHaveLength(EVENTS);
    expect(r.mib - page.mib).toBeLessThan(GROWTH_MIB);
  });

  it("as JSON: every event, newest first, in about the memory of one page", () => {
    const page = audit(["--json", "--limit", "500"]);
    const r = audit(["--json"]);
    expect(r.status).toBe(0);
    const ids = (JSON.parse(r.out) as Array<{ id: string }>).map((e) => e.id);
    expect(ids).toHaveLength(EVENTS);
    expect(ids[0]).toBe(`evt_${"0".repeat(26)}`);
    expect(r.mib - page.mib).toBeLessThan(GROWTH_MIB);
  });
});
