import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ICCID } from "../lib/iccids.mjs";
import { createAccount, startOnSqlite } from "../lib/iccid-server.mjs";
import { costsDuring, rounds } from "../lib/load.mjs";
import { pageRequest, signIn } from "../lib/session.mjs";
import { buildRow } from "../lib/table.mjs";

const KEYS = 20;
const HOUR = 3_600_000;
const YEAR = 365 * 24 * HOUR;
const IN_FLIGHT = 8;
/** Usage reads have a budget of 60 a minute: the reader reads at most once a second, and a bit more slowly. */
const READ_SPACING_MS = 1_050;

const hourIso = (ms) => new Date(ms).toISOString().replace(".000Z", "Z");

/**
 * The reader's year: KEYS keys made on the account page, and an hour of usage for each key for every hour
 * of the last year, written straight into the store's usage table.
 */
async function seedYear(server, db, reader, to) {
  const cookie = await signIn(server, reader);
  const keys = [];
  for (let i = 0; i < KEYS; i++) keys.push((await pageRequest(server, cookie, "POST", "/api/v1/keys", { name: `reader ${i}` })).id);
  const sqlite = new Database(db);
  sqlite.pragma("busy_timeout = 5000");
  const { id } = sqlite.prepare("SELECT id FROM accounts WHERE email = ?").get(reader.email);
  const insert = sqlite.prepare("INSERT INTO usage_counters (account_id, bucket_start, key_id, requests, lookups) VALUES (?, ?, ?, ?, ?)");
  sqlite.transaction(() => {
    for (let hour = to - YEAR; hour < to; hour += HOUR) for (const key of keys) insert.run(id, hour, key, 3, 40);
  })();
  sqlite.close();
}

/**
 * Lookups of one account while another reads a year of its usage, on SQLite, for every build: the reader
 * (an account with a year of hourly usage for KEYS keys) asks `GET /api/v1/usage` for the year by month and
 * by key once in each turn, at most once a second (its budget is 60 a minute), while the first account
 * makes settings.usageLookups lookups without a key. The server's CPU per lookup, the read's included,
 * judged; the read's latency, reported.
 */
export async function usageRows({ settings, builds }) {
  const dir = mkdtempSync(join(tmpdir(), "iccid-bench-usage-"));
  const running = [];
  try {
    const to = Math.floor(Date.now() / HOUR) * HOUR + HOUR;
    const query = `/api/v1/usage?from=${hourIso(to - YEAR)}&to=${hourIso(to)}&granularity=month&group_by=api_key`;
    const contenders = {};
    for (const build of builds) {
      const { server, db } = await startOnSqlite(build, dir, running);
      const reader = await createAccount(build, db, "reader@example.test");
      await seedYear(server, db, reader, to);
      const lookup = server.load.request("/api/v1/iccid/lookup", JSON.stringify({ iccid: ICCID }), { authorization: `Bearer ${server.owner.key}`, accept: "application/json" });
      let lastRead = 0;
      const read = async () => {
        await new Promise((resolve) => setTimeout(resolve, lastRead + READ_SPACING_MS - performance.now()));
        lastRead = performance.now();
        const res = await fetch(`${server.url}${query}`, { headers: { authorization: `Bearer ${reader.key}` } });
        const usage = await res.json();
        if (res.status !== 200 || !(usage.by_key?.length >= KEYS)) throw new Error(`${build.name}: the usage read answered ${res.status} with ${usage.by_key?.length} keys`);
        return performance.now() - lastRead;
      };
      contenders[build.name] = async () => {
        let latency = 0;
        const { costs } = await costsDuring([server.pid], settings.usageLookups, () =>
          Promise.all([server.load.repeat(lookup, settings.usageLookups, IN_FLIGHT), read().then((ms) => (latency = ms))]),
        );
        return { server: costs[0], latency };
      };
    }
    const all = await rounds(settings.usageRounds, contenders, settings.warmUpRounds + 2);
    return [
      buildRow(all, builds, "lookups while another account reads a year of usage, server CPU", "µs/lookup", (r, b) => r[b].server),
      buildRow(all, builds, "the year's usage read (by month and key), latency", "ms", (r, b) => r[b].latency, { judged: false }),
    ];
  } finally {
    await Promise.all(running.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
