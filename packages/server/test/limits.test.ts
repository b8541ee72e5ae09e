import { luhnCheckDigit } from "@iccid/core";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call } from "./http.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const withCheck = (body: string) => body + luhnCheckDigit(body);
const iccids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => withCheck(`8944100000${String(from + i).padStart(8, "0")}`));

describe("rate limit", () => {
  it("carries RateLimit fields on every Bearer answer and refuses past the limit with Retry-After", async () => {
    server = await startTestServer({ plan: { rate_limit: 3, window_seconds: 60 } });
    const key = server.owner.apiKey;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: iccids(1)[0] } }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.ratelimit)).toEqual([
      expect.stringMatching(/^"default";r=2;t=\d+$/),
      expect.stringMatching(/^"default";r=1;t=\d+$/),
      expect.stringMatching(/^"default";r=0;t=\d+$/),
    ]);
    expect(answers[0]!.headers["ratelimit-policy"]).toBe('"default";q=3;w=60');

    // A batch is one request for the rate limit, and a 422 still spends one.
    const refused = await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: iccids(5) } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body.retry_after).toBe(Number(refused.headers["retry-after"]));
    expect(refused.headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/);

    // Usage reads spend nothing, so they still work and still say where the limit stands.
    const usage = await call(server.url, "GET", "/api/v1/usage", { key });
    expect(usage.status).toBe(200);
    expect(usage.headers.ratelimit).toMatch(/r=0/);
    expect(usage.body.totals).toEqual({ requests: 3, lookups: 3 });
  });
});

describe("quota", () => {
  it("refuses a batch that would overrun the quota whole and charges nothing", async () => {
    server = await startTestServer({ plan: { monthly_lookups: 10 } });
    const key = server.owner.apiKey;
    const first = await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: [...iccids(8), "12AB", iccids(1)[0]] } });
    expect(first.status).toBe(200);
    expect(first.body.summary).toMatchObject({ total: 10, ok: 9, unique: 9 });

    const over = await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: iccids(3, 100) } });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("quota_exceeded");
    expect(over.body.resets_at).toMatch(/Z$/);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(86_000);

    const usage = await call(server.url, "GET", "/api/v1/usage", { key });
    expect(usage.body.quota).toMatchObject({ limit: 10, used: 8, remaining: 2, resets_at: over.body.resets_at });
    expect(usage.body.totals).toEqual({ requests: 1, lookups: 8 });

    // What still fits is answered; then the single lookup that would overrun is refused too.
    expect((await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: iccids(2, 200) } })).status).toBe(200);
    const single = await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: iccids(1, 300)[0] } });
    expect(single.status).toBe(429);
    expect(single.body.code).toBe("quota_exceeded");
    expect(over.body.detail).toBe("This request needs 3 lookups but 2 of 10 remain this period.");
    expect(single.body.detail).toBe("This request needs 1 lookup but 0 of 10 remain this period.");
    const after = await call(server.url, "GET", "/api/v1/usage", { key });
    expect(after.body.quota).toMatchObject({ used: 10, remaining: 0 });
    expect(after.body.totals).toEqual({ requests: 2, lookups: 10 });
  });

  it("charges a batch of only malformed items as one request and no lookups", async () => {
    server = await startTestServer();
    const key = server.owner.apiKey;
    expect((await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: ["12AB", ""] } })).status).toBe(200);
    const usage = await call(server.url, "GET", "/api/v1/usage", { key });
    expect(usage.body.totals).toEqual({ requests: 1, lookups: 0 });
  });
});
