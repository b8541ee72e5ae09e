import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import type { Clock } from "../src/time.js";
import { call, sessionCookie } from "./http.js";

let server: TestServer;
let key: string;
let now = Date.parse("2026-11-03T10:15:00Z");
const clock: Clock = { now: () => now };
const GOOD = "89441000000000000018";

beforeAll(async () => {
  server = await startTestServer({ clock });
  key = server.owner.apiKey;
  // Account anchor: 2026-11-03T10:15:00Z. Traffic on two days, from two keys.
  const cookie = sessionCookie(
    await call(server.url, "POST", "/api/v1/session", { body: { email: server.owner.email, password: server.owner.password } }),
  );
  const second = (await call(server.url, "POST", "/api/v1/keys", { cookie, body: { name: "second" } })).body.key;
  await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: GOOD } });
  await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: [GOOD, "89441000000000000026", "12AB"] } });
  now = Date.parse("2026-11-05T23:59:00Z");
  await call(server.url, "POST", "/api/v1/iccid/lookup", { key: second, body: { iccid: GOOD } });
  now = Date.parse("2026-11-06T12:00:00Z");
});
afterAll(async () => server?.close());

const usage = (query = "") => call(server.url, "GET", `/api/v1/usage${query}`, { key });

describe("GET /api/v1/usage", () => {
  it("defaults to the current subscription period by day", async () => {
    const r = await usage();
    expect(r.status).toBe(200);
    expect(r.body.period).toEqual({ from: "2026-11-03T10:15:00Z", to: "2026-12-03T10:15:00Z" });
    expect(r.body.subscription).toEqual({
      status: "active",
      plan: "standard",
      current_period_start: "2026-11-03T10:15:00Z",
      current_period_end: "2026-12-03T10:15:00Z",
    });
    expect(r.body.quota).toEqual({ limit: 100000, used: 4, remaining: 99996, resets_at: "2026-12-03T10:15:00Z" });
    expect(r.body.rate_limit).toEqual({ limit: 600, window_seconds: 60 });
    expect(r.body.totals).toEqual({ requests: 3, lookups: 4 });
    expect(r.body.series[0]).toEqual({ start: "2026-11-03T00:00:00Z", requests: 2, lookups: 3 });
    expect(r.body.series[2]).toEqual({ start: "2026-11-05T00:00:00Z", requests: 1, lookups: 1 });
    expect(r.body.series).toHaveLength(31);
    expect(r.body.as_of).toBe("2026-11-06T12:00:00Z");
    expect(r.body).not.toHaveProperty("by_key");
  });

  it("reads from/to as dates, honours granularity and splits by key", async () => {
    const r = await usage("?from=2026-11-05&to=2026-11-06&granularity=hour&group_by=api_key");
    expect(r.status).toBe(200);
    expect(r.body.period).toEqual({ from: "2026-11-05T00:00:00Z", to: "2026-11-06T00:00:00Z" });
    expect(r.body.series).toHaveLength(24);
    expect(r.body.series[23]).toEqual({ start: "2026-11-05T23:00:00Z", requests: 1, lookups: 1 });
    expect(r.body.totals).toEqual({ requests: 1, lookups: 1 });
    expect(r.body.by_key).toEqual([{ key_id: expect.stringMatching(/^key_/), name: "second", requests: 1, lookups: 1 }]);

    const monthly = await usage("?from=2026-11-01T00:00:00Z&to=2027-01-01T00:00:00Z&granularity=month");
    expect(monthly.body.series).toEqual([
      { start: "2026-11-01T00:00:00Z", requests: 3, lookups: 4 },
      { start: "2026-12-01T00:00:00Z", requests: 0, lookups: 0 },
    ]);
  });

  it("counts exactly the window asked for, and refuses a bound inside an hour, naming it and the hour", async () => {
    // The traffic of 2026-11-03 was at 10:15: a window of a minute at 10:30 is not answered with that hour.
    for (const [query, field] of [
      ["?from=2026-11-03T10:30:00Z&to=2026-11-03T10:31:00Z", "from"],
      ["?from=2026-11-03T10:00:00Z&to=2026-11-03T10:31:00Z", "to"],
    ] as const) {
      const r = await usage(query);
      expect(r.status, query).toBe(422);
      expect(r.body.code).toBe("invalid_input");
      expect(r.body.errors[0]).toMatchObject({ pointer: `/${field}`, code: "not_on_hour" });
      expect(r.body.detail).toMatch(new RegExp(`^${field}: .*hour`));
    }
    // On whole hours the window is exact, in every granularity: the 10:00 hour holds it all, 11:00 on nothing.
    expect((await usage("?from=2026-11-03T10:00:00Z&to=2026-11-03T11:00:00Z&granularity=day")).body.totals).toEqual({ requests: 2, lookups: 3 });
    const after = await usage("?from=2026-11-03T11:00:00Z&to=2026-11-04T00:00:00Z&granularity=day");
    expect(after.body.totals).toEqual({ requests: 0, lookups: 0 });
    expect(after.body.series).toEqual([{ start: "2026-11-03T00:00:00Z", requests: 0, lookups: 0 }]);
  });

  it("consumes no quota and meters nothing", async () => {
    const before = (await usage()).body;
    await usage();
    const after = (await usage()).body;
    expect(after.quota.used).toBe(before.quota.used);
    expect(after.totals).toEqual(before.totals);
  });

  it.each([
    ["?granularity=week", "/granularity"],
    ["?from=yesterday", "/from"],
    ["?group_by=country", "/group_by"],
    ["?from=2026-11-05&to=2026-11-01", "/to"],
    ["?from=2020-01-01&to=2026-01-01&granularity=hour", "/granularity"],
    ["?from=2026-11-01&from=2026-11-02", "/from"],
    ["?colour=blue", "/colour"],
  ])("422 invalid_input for %s", async (query, pointer) => {
    const r = await usage(query);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("invalid_input");
    expect(r.body.errors[0].pointer).toBe(pointer);
  });
});
