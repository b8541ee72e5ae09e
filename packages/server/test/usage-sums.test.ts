import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Charge } from "../src/store/store.js";
import { addMonths, floorDay, floorHour, floorMonth, rfc3339 } from "../src/time.js";
import { startTestServer, type TestAccount, type TestServer } from "../test-support/index.js";
import { call, sessionCookie } from "./http.js";

// The usage report is summed by the store (SQLite here, PostgreSQL in server-postgres): whatever the
// window and granularity, it must say what adding up the charged hours one by one says.
const HOUR = 3_600_000;
const START = Date.parse("2026-10-20T00:00:00Z");
const HOURS = 85 * 24; // to 2027-01-13: three month boundaries, a year's end
// The server's time, inside an hour: the account's billing period starts and ends mid-hour.
const NOW = Date.parse("2026-11-07T05:30:00Z");

interface Charged {
  at: number;
  key_id: string;
  lookups: number;
}

let server: TestServer;
let user: TestAccount;
const charged: Charged[] = [];
const names = new Map<string, string>();

/** A fixed sequence of pseudo-random numbers in [0, 1): the same usage on every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
}

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => NOW } });
  user = await server.createAccount();
  const cookie = sessionCookie(await call(server.url, "POST", "/api/v1/session", { body: { email: user.email, password: user.password } }));
  names.set(user.keyId, "test").set("web_page", "Web page");
  for (const name of ["ci", "nightly"]) names.set((await call(server.url, "POST", "/api/v1/keys", { cookie, body: { name } })).body.id, name);
  const keys = [...names.keys()];
  const next = sequence(60);
  for (let i = 0; i < 900; i++) {
    // The last key is used only in the first fortnight: windows after it must not list it.
    const key_id = keys[Math.floor(next() * keys.length)]!;
    const hour = Math.floor(next() * (key_id === keys[3] ? 14 * 24 : HOURS));
    charged.push({ at: START + hour * HOUR + Math.floor(next() * HOUR), key_id, lookups: Math.floor(next() * 6) });
  }
  // One in the hour the billing period starts in, before it starts.
  charged.push({ at: NOW - 20 * 60_000, key_id: keys[0]!, lookups: 3 });
  const charge = (c: Charged): Charge => ({
    account_id: user.id,
    key_id: c.key_id,
    period_start: 0,
    bucket_start: floorHour(c.at),
    lookups: c.lookups,
    quota_limit: 1_000_000,
  });
  for (let i = 0; i < charged.length; i += 50) {
    const outcomes = await Promise.all(charged.slice(i, i + 50).map((c) => server.store.charge(charge(c))));
    expect(outcomes.every((o) => o.charged)).toBe(true);
  }
});
afterAll(async () => server?.close());

const FLOOR = { hour: floorHour, day: floorDay, month: floorMonth };
const NEXT = { hour: (ms: number) => ms + HOUR, day: (ms: number) => ms + 24 * HOUR, month: (ms: number) => addMonths(ms, 1) };

/** The report's totals, series and keys, added up from the charges one by one. */
function expected(from: number, to: number, granularity: keyof typeof FLOOR) {
  const series = new Map<number, { start: string; requests: number; lookups: number }>();
  for (let start = FLOOR[granularity](from); start < to; start = NEXT[granularity](start)) series.set(start, { start: rfc3339(start), requests: 0, lookups: 0 });
  const totals = { requests: 0, lookups: 0 };
  const byKey = new Map<string, { key_id: string; name: string | null; requests: number; lookups: number }>();
  for (const c of charged.filter((c) => floorHour(c.at) >= from && floorHour(c.at) < to)) {
    for (const sum of [totals, series.get(FLOOR[granularity](c.at))!]) (sum.requests += 1), (sum.lookups += c.lookups);
    const key = byKey.get(c.key_id) ?? { key_id: c.key_id, name: names.get(c.key_id)!, requests: 0, lookups: 0 };
    byKey.set(c.key_id, { ...key, requests: key.requests + 1, lookups: key.lookups + c.lookups });
  }
  const by_key = [...byKey.values()].sort((a, b) => b.lookups - a.lookups || (a.key_id < b.key_id ? -1 : 1));
  return { totals, series: [...series.values()], by_key };
}

describe("usage summed by the store", () => {
  it.each([
    ["2026-10-25T05:00:00Z", "2027-01-03T17:00:00Z", "month"],
    ["2026-10-20", "2027-01-13", "month"],
    ["2026-10-25T05:00:00Z", "2027-01-03T17:00:00Z", "day"],
    ["2026-11-28T03:00:00Z", "2026-12-03T00:00:00Z", "hour"],
    ["2026-12-01", "2027-02-01", "month"],
    ["2026-09-01", "2026-10-01", "day"],
  ] as const)("from %s to %s by %s: what the hours add up to, bucket by bucket and key by key", async (from, to, granularity) => {
    const r = await call(server.url, "GET", `/api/v1/usage?from=${from}&to=${to}&granularity=${granularity}&group_by=api_key`, { key: user.apiKey });
    expect(r.status).toBe(200);
    const at = (value: string) => Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
    const want = expected(at(from), at(to), granularity);
    expect({ totals: r.body.totals, series: r.body.series, by_key: r.body.by_key }).toEqual(want);
  });

  it("without from and to, the billing period: its first and last hours counted whole", async () => {
    const r = await call(server.url, "GET", "/api/v1/usage?granularity=day&group_by=api_key", { key: user.apiKey });
    expect(r.status).toBe(200);
    expect([r.body.period.from, r.body.period.to]).toEqual(["2026-11-07T05:30:00Z", "2026-12-07T05:30:00Z"]);
    const want = expected(floorHour(NOW), Date.parse("2026-12-07T05:30:00Z"), "day");
    expect(charged.some((c) => c.at >= floorHour(NOW) && c.at < NOW)).toBe(true);
    expect({ totals: r.body.totals, series: r.body.series, by_key: r.body.by_key }).toEqual(want);
  });

  it("sums spans of any length, and gives nothing for a span without usage", async () => {
    const spans = [
      { from: START - 24 * HOUR, to: START },
      { from: START, to: START + HOURS * HOUR },
    ];
    const sums = await server.store.usageSums(user.id, spans);
    expect(sums.every((s) => s.bucket === 1)).toBe(true);
    expect(sums.reduce((n, s) => n + s.requests, 0)).toBe(charged.length);
    expect(new Set(sums.map((s) => s.key_id))).toEqual(new Set(names.keys()));
    expect(await server.store.usageSums(user.id, [spans[0]!])).toEqual([]);
  });
});
