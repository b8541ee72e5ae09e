import { startTestServer, type TestServer } from "@iccid/server/testing";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { SEED, nthIccid, send } from "./support.js";

// Abuse in parallel and with forged headers, against a real server: the limits hold exactly.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const json = { "content-type": "application/json" };
const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  send(server!.url, "POST", "/api/v1/session", { ...json, ...headers }, JSON.stringify({ email, password }));

const countBy = (statuses: number[]) => statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});

describe("abuse", () => {
  it("parallel password guesses for one email: exactly 5 reach the password check, even with the right one among them", async () => {
    server = await startTestServer();
    const victim = await server.createAccount();
    // 200 guesses at once, the right password at a seeded position among them.
    const right = fc.sample(fc.integer({ min: 0, max: 199 }), { seed: SEED, numRuns: 1 })[0]!;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => login(victim.email, i === right ? victim.password : `guess-${i}-wrong`)),
    );
    const byStatus = countBy(answers.map((a) => a.status));
    // Only 5 attempts are admitted (the rest are refused before any password is checked)...
    expect((byStatus[401] ?? 0) + (byStatus[201] ?? 0)).toBe(5);
    expect(byStatus[429]).toBe(195);
    for (const a of answers.filter((a) => a.status === 429)) {
      expect(a.body.code).toBe("rate_limited");
      expect(Number(a.headers["retry-after"])).toBeGreaterThan(0);
    }
    console.log(`parallel guesses: 200 sent, ${JSON.stringify(byStatus)} (right password at #${right})`);
  });

  it("forged X-Forwarded-For entries behind a trusted proxy do not escape the per-IP sign-in limit", async () => {
    server = await startTestServer({ settings: { trustProxy: true, loginAttemptsPerIp: 20 } });
    // The client writes any first entries it likes; the proxy appends the address it saw (the last one).
    const forged = (i: number, seen: string) => ({ "x-forwarded-for": `10.${i % 250}.${(i * 7) % 250}.1, 198.51.100.${i % 200}, ${seen}` });
    const emails = Array.from({ length: 30 }, (_, i) => `nobody-${i}@example.test`);
    const fromOne = await Promise.all(emails.map((email, i) => login(email, "wrong-password", forged(i, "203.0.113.7"))));
    expect(countBy(fromOne.map((a) => a.status))).toEqual({ 401: 20, 429: 10 });
    // Another client address (as the proxy saw it) has its own budget.
    expect((await login(emails[0]!, "wrong-password", forged(0, "203.0.113.8"))).status).toBe(401);
  });

  it("with two proxies in front, the client is the second entry from the right", async () => {
    server = await startTestServer({ settings: { trustProxy: true, proxyHops: 2, loginAttemptsPerIp: 3 } });
    const via = (client: string, i: number) => ({ "x-forwarded-for": `192.0.2.${i}, ${client}, 10.0.0.1` });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await login(`x${i}@example.test`, "wrong-password", via("203.0.113.9", i))).status);
    expect(answers).toEqual([401, 401, 401, 429]);
    expect((await login("y@example.test", "wrong-password", via("203.0.113.10", 9))).status).toBe(401);
  });

  it("a usage-read flood gets 429 with the usage policy's fields; another account still gets its lookups and reads", async () => {
    server = await startTestServer({ settings: { usageReads: 30, usageReadWindowSeconds: 60 } });
    const reader = await server.createAccount();
    const other = await server.createAccount();
    const read = (query: string) => send(server!.url, "GET", `/api/v1/usage${query}`, { authorization: `Bearer ${reader.apiKey}` });

    // A year by the hour is more than one read may ask for.
    const year = await read("?granularity=hour&from=2025-01-01&to=2026-01-01");
    expect(year.status).toBe(422);
    expect(year.body.errors[0].pointer).toBe("/granularity");

    // 32 readers in parallel, 3 reads each: 30 answered, the rest refused.
    const flood = (await Promise.all(Array.from({ length: 32 }, () => Promise.all([read("?granularity=hour"), read(""), read("?granularity=month")])))).flat();
    const byStatus = countBy(flood.map((a) => a.status));
    expect(byStatus).toEqual({ 200: 29, 429: 67 }); // the year-long read above took one of the 30
    const refused = flood.find((a) => a.status === 429)!;
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["ratelimit-policy"]).toBe('"usage";q=30;w=60');
    expect(refused.headers.ratelimit).toMatch(/^"usage";r=0;t=\d+$/);

    // The other account's lookups are unaffected (its own reads too).
    const lookup = await send(server.url, "POST", "/api/v1/iccid/lookup", { ...json, authorization: `Bearer ${other.apiKey}` }, JSON.stringify({ iccid: nthIccid(1) }));
    expect(lookup.status).toBe(200);
    expect((await send(server.url, "GET", "/api/v1/usage", { authorization: `Bearer ${other.apiKey}` })).status).toBe(200);
    console.log(`usage-read flood: 96 reads in parallel, ${JSON.stringify(byStatus)}`);
  });

  it("usage periods at the ends of the calendar are refused by name, never answered with times the schema rejects", async () => {
    server = await startTestServer();
    const read = (query: string) => send(server!.url, "GET", `/api/v1/usage${query}`, { authorization: `Bearer ${server!.owner.apiKey}` });
    for (const query of ["?from=0000-01-01&to=0001-01-01&granularity=month", "?from=9999-06-01&to=9999-12-31&granularity=month"]) {
      const r = await read(query);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe("invalid_input");
      expect(["/from", "/to"]).toContain(r.body.errors[0].pointer);
    }
    expect((await read("?from=1970-01-01&to=1970-02-01&granularity=day")).status).toBe(200);
  });
});
