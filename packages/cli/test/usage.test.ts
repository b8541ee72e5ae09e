import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccid, iccidOnTty, plain, serverEnv } from "./harness.js";

const UK = "89441000000000000018";
let server: TestServer;
let env: Record<string, string>;
/** The UTC day of the lookups, taken right after them (not when a later test runs, maybe past midnight). */
let day: string;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 1000, monthly_lookups: 5000 } });
  env = serverEnv(server.url, server.owner.apiKey);
  expect((await iccid(["lookup", UK, "89441000000000000019", "12"], { env })).code).toBe(3); // 2 lookups, 1 request
  expect((await iccid(["lookup", UK], { env })).code).toBe(0); // 1 lookup, 1 request
  day = new Date().toISOString().slice(0, 10);
});
afterAll(() => server?.close());

describe("iccid usage", () => {
  it("prints period, quota, rate limit, totals and a bar chart", async () => {
    const run = await iccid(["usage"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Quota\s+3 of 5,000 lookups used · 4,997 remaining\n/);
    expect(run.stdout).toMatch(/Resets\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n/);
    expect(run.stdout).toMatch(/Rate limit\s+1,000 requests per 60 s/);
    expect(run.stdout).toMatch(/Totals\s+2 requests · 3 lookups/);
    expect(run.stdout).toMatch(new RegExp(`${day} │█+ +3\\n`));
    expect(run.stdout).not.toContain("\u001b[");
  });

  it("fits a terminal of 80 columns, each value whole on its line", async () => {
    const run = await iccidOnTty(["usage"], { env, columns: 80 });
    expect(run.code).toBe(0);
    const lines = plain(run.stdout).split(/\r?\n/);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(lines).toContainEqual(expect.stringMatching(/^Resets\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/));
  });

  it("--by-key breaks usage down per key; --json is the API's object", async () => {
    const byKey = await iccid(["usage", "--by-key"], { env });
    expect(byKey.stdout).toContain("By key");
    expect(byKey.stdout).toContain(server.owner.keyId);

    const json = JSON.parse((await iccid(["usage", "--json", "--by-key", "--granularity", "month"], { env })).stdout);
    expect(json.quota).toMatchObject({ limit: 5000, used: 3, remaining: 4997 });
    expect(json.totals).toEqual({ requests: 2, lookups: 3 });
    expect(json.by_key[0]).toMatchObject({ key_id: server.owner.keyId, lookups: 3 });
  });

  it("--from/--to choose the period", async () => {
    const run = await iccid(["usage", "--from", "2020-01-01", "--to", "2020-01-03", "--json"], { env });
    const usage = JSON.parse(run.stdout);
    expect(usage.period.from.startsWith("2020-01-01")).toBe(true);
    expect(usage.totals.lookups).toBe(0);
  });

  it("colours on a terminal", async () => {
    const run = await iccidOnTty(["usage"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("\u001b[");
    expect(plain(run.stdout)).toContain("Lookups per day");
  });
});
