import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { luhnCheckDigit } from "@iccid/core";
import { IccidClient } from "@iccid/sdk";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HoldingRelay } from "./holding-relay.js";
import { iccid, iccidIntoHead, serverEnv, spawnIccid, tempDir } from "./harness.js";

// Every answer the server charged reaches the output or the resume state, however the run stops, and
// --resume asks only for the rest: the server's own usage count is the judge.
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
  dir = tempDir("iccid-charged-");
});
afterAll(() => server?.close());

const iccidOf = (n: number) => {
  const body = "89441" + String(n).padStart(13, "0");
  return body + luhnCheckDigit(body);
};

/** Writes "iccid,ref" rows, ref = r1… in input order. */
function writeCsv(path: string, iccids: readonly string[]): void {
  writeFileSync(path, ["iccid,ref", ...iccids.map((value, i) => `${value},r${i + 1}`)].join("\n") + "\n");
}

/**
 * A run of its own: an account on the plan `name` with these limits (a month of 100,000 lookups unless
 * said), and `iccids` written to `<file>.csv`; its env and the paths of its input and output.
 */
async function runOn(name: string, limits: { rate_limit: number; monthly_lookups?: number }, file: string, iccids: readonly string[]) {
  await server.setPlan(name, { window_seconds: 60, monthly_lookups: 100_000, ...limits });
  const account = await server.createAccount({ plan: name });
  const input = join(dir, `${file}.csv`);
  writeCsv(input, iccids);
  return { account, env: serverEnv(server.url, account.apiKey), input, out: join(dir, `${file}-out.csv`) };
}

async function used(apiKey: string): Promise<number> {
  const client = new IccidClient({ apiKey, baseUrl: server.url });
  try {
    return (await client.usage.get()).quota.used;
  } finally {
    await client.close();
  }
}

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** The output's data rows (header left out), and the ICCIDs kept in its resume state. */
function outputRows(out: string): string[][] {
  return readFileSync(out, "utf8").trimEnd().split("\n").slice(1).map((line) => line.split(","));
}
function keptIccids(out: string): string[] {
  const path = `${out}.resume.jsonl`;
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").trimEnd().split("\n").flatMap((line) => (JSON.parse(line) as { iccids: string[] }).iccids);
}

/** Every row of the input once, in order, with its own answer. */
function expectComplete(out: string, iccids: readonly string[]): void {
  const rows = outputRows(out);
  expect(rows).toHaveLength(iccids.length);
  rows.forEach((row, i) => {
    if (row[1] !== `r${i + 1}` || row[2] !== iccids[i]) throw new Error(`row ${i + 1} is ${row.slice(0, 3).join(",")}`);
  });
  expect(existsSync(`${out}.resume.jsonl`)).toBe(false);
}

describe("a batch that stops early keeps every charged answer", () => {
  it("a quota that runs out mid-file at concurrency 8: charged rows are written or kept, and --resume pays only for the rest", async () => {
    const iccids = Array.from({ length: 10_000 }, (_, i) => iccidOf(i + 1));
    const { account, env, input, out } = await runOn("q5500", { rate_limit: 100_000, monthly_lookups: 5500 }, "quota", iccids);

    const first = await iccid(["batch", input, "--out", out, "--concurrency", "8"], { env });
    expect(first.code).toBe(5);
    expect(first.stderr).toMatch(/quota_exceeded/);
    const charged = await used(account.apiKey);
    expect(charged).toBe(5000); // five whole chunks of 1000 fit in 5,500; a sixth is refused whole
    const written = outputRows(out).map((row) => row[2]!);
    const kept = keptIccids(out);
    expect(new Set([...written, ...kept]).size).toBe(charged);
    expect(written).toEqual(iccids.slice(0, written.length));

    await server.setPlan("q5500", { rate_limit: 100_000, window_seconds: 60, monthly_lookups: 20_000 });
    const second = await iccid(["batch", input, "--out", out, "--concurrency", "8", "--resume"], { env });
    expect(second.code).toBe(0);
    expect(await used(account.apiKey)).toBe(10_000);
    expectComplete(out, iccids);
  });

  it("a rate limit with --no-wait at concurrency 8: the answered requests are written or kept, and --resume pays only for the rest", async () => {
    const iccids = Array.from({ length: 10_000 }, (_, i) => iccidOf(300_000 + i));
    const { account, env, input, out } = await runOn("three-per-minute", { rate_limit: 3 }, "rate", iccids);

    const first = await iccid(["--no-wait", "batch", input, "--out", out, "--concurrency", "8"], { env });
    expect(first.code).toBe(5);
    expect(first.stderr).toMatch(/rate_limited/);
    const charged = await used(account.apiKey);
    expect(charged).toBe(3000); // three requests of 1000 in the window
    const written = outputRows(out).map((row) => row[2]!);
    expect(new Set([...written, ...keptIccids(out)]).size).toBe(charged);

    await server.setPlan("three-per-minute", { rate_limit: 100_000, window_seconds: 60, monthly_lookups: 100_000 });
    const second = await iccid(["batch", input, "--out", out, "--concurrency", "8", "--resume"], { env });
    expect(second.code).toBe(0);
    expect(await used(account.apiKey)).toBe(10_000);
    expectComplete(out, iccids);
  });

  it("Ctrl-C while a request waits out a rate limit stops at once: the wait holds no answer, --resume pays for the rest", async () => {
    const iccids = Array.from({ length: 5_000 }, (_, i) => iccidOf(400_000 + i));
    const { account, env, input, out } = await runOn("two-per-minute", { rate_limit: 2 }, "paced", iccids);

    const { child, done } = spawnIccid(["batch", input, "--out", out, "--concurrency", "1"], { env });
    let stderr = "";
    child.stderr!.on("data", (text: string) => (stderr += text));
    // Two requests fit in the window; the third is told to wait about a minute.
    await until(() => child.exitCode !== null || stderr.includes("rate limited; retrying in"));
    const interruptedAt = performance.now();
    child.kill("SIGINT");
    const first = await done;
    expect(performance.now() - interruptedAt).toBeLessThan(10_000);
    expect(first.code).toBe(130);
    expect(first.stderr).toContain("Interrupted");
    expect(first.stderr).not.toContain("Stopped by an error");
    expect(first.stderr).toContain(`To carry on: iccid batch ${input} --out ${out} --concurrency 1 --resume\n`);
    expect(await used(account.apiKey)).toBe(2000);
    expect(outputRows(out)).toHaveLength(2000);

    await server.setPlan("two-per-minute", { rate_limit: 100_000, window_seconds: 60, monthly_lookups: 100_000 });
    const second = await iccid(["batch", input, "--out", out, "--concurrency", "1", "--resume"], { env });
    expect(second.code).toBe(0);
    expect(await used(account.apiKey)).toBe(5000);
    expectComplete(out, iccids);
  }, 60_000);

  it("answers that come after a refused chunk are kept, and --resume writes them without asking again", async () => {
    // Rows 1-1000: 1000 numbers, more than the quota: refused whole. Rows 1001-8000: seven chunks of ten
    // numbers each (a batch costs one lookup per distinct number), answered. Rows 8001-10000: distinct.
    const iccids = Array.from({ length: 10_000 }, (_, i) => (i < 1000 || i >= 8000 ? iccidOf(i + 1) : iccidOf(100_000 + Math.floor(i / 1000) * 10 + (i % 10))));
    const { account, env, input, out } = await runOn("q500", { rate_limit: 100_000, monthly_lookups: 500 }, "gap", iccids);
    const relay = await HoldingRelay.start(server.url);
    try {
      // The answers are held until the server has charged all seven cheap chunks: the refusal of the first
      // chunk reaches the CLI together with the seven answers after it.
      const { done } = spawnIccid(["batch", input, "--out", out, "--concurrency", "8"], { env: serverEnv(relay.url, account.apiKey) });
      await until(async () => (await used(account.apiKey)) >= 70);
      relay.release();
      const first = await done;
      expect(first.code).toBe(5);
      expect(await used(account.apiKey)).toBe(70);
      expect(outputRows(out)).toHaveLength(0);
      const kept = keptIccids(out);
      expect(kept).toEqual(iccids.slice(1000, 8000));
      expect(first.stderr).toContain("7,000 later rows were answered already");

      await server.setPlan("q500", { rate_limit: 100_000, window_seconds: 60, monthly_lookups: 100_000 });
      const second = await iccid(["batch", input, "--out", out, "--concurrency", "8", "--resume"], { env });
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(/answered before \(resumed\)\s+7,000/);
      expect(await used(account.apiKey)).toBe(70 + 1000 + 2000); // the first chunk and the last two, nothing twice
      expectComplete(out, iccids);
    } finally {
      await relay.close();
    }
  });

  it("a reader that closes stdout early (| head) stops the run, and stderr counts every charged row it could not write", async () => {
    const iccids = Array.from({ length: 20_000 }, (_, i) => iccidOf(500_000 + i));
    const { account, env, input, out } = await runOn("piped", { rate_limit: 100_000 }, "piped", iccids);
    const { code, stdout, stderr } = await iccidIntoHead(["batch", input, "-q", "--concurrency", "4"], 2, { env });

    expect(stdout.split("\n").slice(0, 2).map((line) => line.split(",")[0])).toEqual(["iccid", iccids[0]]);
    expect(code).toBe(0);
    expect(stderr).toContain("Stopped: the output was closed");
    const count = (pattern: RegExp) => Number(stderr.match(pattern)?.[1]?.replace(/,/g, "") ?? 0);
    const written = count(/The reader closed the output after ([\d,]+) rows?\./);
    const unwritten = count(/^([\d,]+) later rows? w(?:as|ere) answered \(and charged\) but not written\.$/m);
    const charged = await used(account.apiKey);
    expect(written).toBeGreaterThan(0);
    expect(charged).toBeLessThan(iccids.length); // no new request after the reader left
    expect(written + unwritten).toBe(charged);

    // As the note says: the same rows asked for again in the same format (here into a file) are not charged again.
    expect(stderr).toContain("Rows asked for again in the same format within 24 hours are not charged again.");
    const again = await iccid(["batch", input, "-q", "--out", out], { env });
    expect(again.code).toBe(0);
    expect(outputRows(out)).toHaveLength(iccids.length);
    expect(await used(account.apiKey)).toBe(iccids.length);
  });

  it("Ctrl-C writes the answers of the requests in flight; --resume pays only for the rest", async () => {
    const account = await server.createAccount();
    const relay = await HoldingRelay.start(server.url);
    try {
      const iccids = Array.from({ length: 10_000 }, (_, i) => iccidOf(200_000 + i));
      const input = join(dir, "sigint.csv");
      const out = join(dir, "sigint-out.csv");
      writeCsv(input, iccids);
      const { child, done } = spawnIccid(["batch", input, "--out", out, "--concurrency", "8"], { env: serverEnv(relay.url, account.apiKey) });
      let stderr = "";
      child.stderr!.on("data", (text: string) => (stderr += text));
      // Eight requests charged, their answers on the way (held): then Ctrl-C.
      await until(async () => (await used(account.apiKey)) >= 8000);
      child.kill("SIGINT");
      await until(() => child.exitCode !== null || stderr.includes("stopping"));
      relay.release();
      const first = await done;
      expect(first.code).toBe(130);
      expect(first.stderr).toContain("Interrupted");
      expect(await used(account.apiKey)).toBe(8000);
      expect(outputRows(out).map((row) => row[2])).toEqual(iccids.slice(0, 8000));

      const second = await iccid(["batch", input, "--out", out, "--concurrency", "8", "--resume"], { env: serverEnv(server.url, account.apiKey) });
      expect(second.code).toBe(0);
      expect(await used(account.apiKey)).toBe(10_000);
      expectComplete(out, iccids);
    } finally {
      await relay.close();
    }
  });
});
