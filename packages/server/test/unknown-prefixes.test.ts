import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { luhnCheckDigit } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerMetrics } from "../src/metrics/prometheus.js";
import {
  createTestDatabase,
  killServerProcesses,
  ownerCredentials,
  SERVER_BIN,
  startServerProcess,
  startTestServer,
  stopServerProcess,
  type TestDatabase,
} from "../test-support/index.js";
import { call } from "./http.js";

// The loop that learns: lookups whose issuer is unknown are counted by their first seven digits, the
// built `iccid-server issuers unknown` lists them, and a prefix imported with `issuers import` leaves the
// list. On a SQLite file, or (ICCID_TEST_STORE=postgres) on a fresh PostgreSQL database.

let dir: string;
let db: string;
let pgDatabase: TestDatabase | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-unknown-"));
  if (process.env.ICCID_TEST_STORE === "postgres") {
    const url = process.env.ICCID_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/iccid_test";
    pgDatabase = await createTestDatabase(url);
    const target = new URL(url);
    target.pathname = `/${pgDatabase.name}`;
    db = target.toString();
  } else {
    db = join(dir, "iccid.db");
  }
});
afterAll(async () => {
  killServerProcesses();
  await pgDatabase?.drop();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]) {
  const r = spawnSync(process.execPath, [SERVER_BIN, ...args, "--db", db], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const card = (prefix: string, account: string) => {
  const body = (prefix + account).padEnd(18, "0");
  return body + luhnCheckDigit(body);
};

function sample(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe("unknown issuer prefixes", () => {
  it("are counted by seven digits, listed most seen first, counted in /metrics, and leave the list once imported", async () => {
    const server = await startServerProcess(db, { args: ["--metrics-port", "0"] });
    let stopped = false;
    try {
      const { key } = await ownerCredentials(server);
      // 8972000: +7 but none of Russia's 89 7 01 numbering; 8999998: no calling code at all.
      for (const account of ["11111111111", "22222222222"]) {
        const answer = await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: card("8972000", account) } });
        expect(answer.status).toBe(200);
        expect(answer.body.issuer).toBeNull();
      }
      const batch = await call(server.url, "POST", "/api/v1/iccid/batch", {
        key,
        // An item sent with its IMSI is counted as any other; one whose IMSI cannot be read is not answered, nor counted.
        body: {
          iccids: [
            card("8972000", "33333333333"),
            card("8999998", "44444444444"),
            card("894410", "5555555555555"),
            { iccid: card("8999998", "66666666666"), imsi: "262011234567890" },
            { iccid: card("8999998", "77777777777"), imsi: "26201" },
          ],
        },
      });
      expect(batch.status).toBe(200);
      const scrapeUrl = /"metrics":"(http:[^"]+)"/.exec(server.stdout())![1]!;
      const scrape = await fetch(scrapeUrl);
      expect(sample(await scrape.text(), "iccid_lookups_unknown_issuer_total")).toBe(5);
      // The counts are written at every flush and when the server stops.
      expect(await stopServerProcess(server)).toBe(0);
      stopped = true;
    } finally {
      if (!stopped) await stopServerProcess(server);
    }

    const listed = run(["issuers", "unknown", "--json"]);
    expect(listed.status, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{ prefix: string; count: number; first_seen: string; last_seen: string }>;
    expect(rows.map((r) => [r.prefix, r.count])).toEqual([
      ["8972000", 3],
      ["8999998", 2],
    ]);
    for (const row of rows) {
      expect(row.first_seen).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(Date.parse(row.last_seen)).toBeGreaterThanOrEqual(Date.parse(row.first_seen));
    }
    // Never the account digits: nothing past the seventh digit is kept.
    expect(listed.stdout).not.toMatch(/1111|3333|4444|6666/);
    const text = run(["issuers", "unknown"]);
    expect(text.stdout).toMatch(/^8972000\t3\t\S+\t\S+\n8999998\t2\t\S+\t\S+\n$/);
    expect(text.stderr).toMatch(/^2 unknown prefixes since /);

    const csv = join(dir, "learned.csv");
    writeFileSync(csv, "prefix,name,country_iso2\n8972000,Learned Telecom,KZ\n");
    expect(run(["issuers", "import", csv]).status).toBe(0);
    const after = JSON.parse(run(["issuers", "unknown", "--json"]).stdout) as Array<{ prefix: string }>;
    expect(after.map((r) => r.prefix)).toEqual(["8999998"]);
    // Days before --since are left out.
    expect(JSON.parse(run(["issuers", "unknown", "--json", "--since", "2999-01-01"]).stdout)).toEqual([]);
    const bad = run(["issuers", "unknown", "--since", "soon"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--since/);
  });
});

describe("a batch's unknown issuer prefixes", () => {
  it("are counted once its charge is made: a batch refused for the quota counts none", async () => {
    const metrics = new ServerMetrics({ processMetrics: false });
    const server = await startTestServer({ plan: { monthly_lookups: 2 }, metrics });
    try {
      const key = server.owner.apiKey;
      const iccids = ["11111111111", "22222222222", "33333333333"].map((account) => card("8999998", account));
      const over = await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids } });
      expect([over.status, over.body.code]).toEqual([429, "quota_exceeded"]);
      expect(sample(await metrics.registry.metrics(), "iccid_lookups_unknown_issuer_total")).toBe(0);
      const fits = await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: iccids.slice(0, 2) } });
      expect(fits.status).toBe(200);
      expect(sample(await metrics.registry.metrics(), "iccid_lookups_unknown_issuer_total")).toBe(2);
    } finally {
      await server.close();
    }
  });
});
