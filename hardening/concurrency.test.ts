import { startTestServer, type TestServer } from "@iccid/server/testing";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { SEED, nthIccid, send } from "./support.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (path: string, key: string, body: unknown) =>
  send(server!.url, "POST", path, { authorization: `Bearer ${key}`, "content-type": "application/json" }, JSON.stringify(body));

describe("limits under concurrency", () => {
  it("admits exactly 50 of 200 concurrent requests against a limit of 50", async () => {
    server = await startTestServer({ plan: { rate_limit: 50, window_seconds: 60 } });
    const key = server.owner.apiKey;
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post("/api/v1/iccid/lookup", key, { iccid: nthIccid(i) })));
    const byStatus = answers.reduce<Record<number, number>>((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {});
    expect(byStatus).toEqual({ 200: 50, 429: 150 });
    const usage = await send(server.url, "GET", "/api/v1/usage", { authorization: `Bearer ${key}` });
    expect(usage.body.totals).toEqual({ requests: 50, lookups: 50 });
  });

  it("never takes the quota below zero under concurrent batches, and used equals the lookups answered", async () => {
    const limit = 1000;
    server = await startTestServer({ plan: { monthly_lookups: limit, rate_limit: 10_000 } });
    const key = server.owner.apiKey;
    // Seeded batch sizes summing well past the quota, some of them with duplicates and malformed items.
    const sizes = fc.sample(fc.integer({ min: 1, max: 120 }), { seed: SEED, numRuns: 40 });
    let next = 0;
    const batches = sizes.map((size) => {
      const items = Array.from({ length: size }, () => nthIccid(next++));
      return [...items, items[0]!, "12AB"];
    });
    const answers = await Promise.all(batches.map((iccids) => post("/api/v1/iccid/batch", key, { iccids })));
    let answered = 0;
    for (const [i, a] of answers.entries()) {
      if (a.status === 200) answered += batches[i]!.length - 2; // each distinct ICCID once; "12AB" costs nothing
      else expect(a.body.code).toBe("quota_exceeded");
    }
    expect(answers.some((a) => a.status === 429)).toBe(true);
    const usage = await send(server.url, "GET", "/api/v1/usage", { authorization: `Bearer ${key}` });
    expect(usage.body.quota.used).toBe(answered);
    expect(usage.body.quota.used).toBeLessThanOrEqual(limit);
    expect(usage.body.quota.remaining).toBe(limit - answered);
    expect(usage.body.totals).toEqual({ requests: answers.filter((a) => a.status === 200).length, lookups: answered });
  });
});
