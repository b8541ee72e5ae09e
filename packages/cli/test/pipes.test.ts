import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { luhnCheckDigit } from "@iccid/core";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccid, iccidIntoHead, iccidReadSlowly, serverEnv, tempDir } from "./harness.js";

// Data on stdout is the CLI's contract: a pipe read slowly still gets every byte, whatever the command.
let server: TestServer;
let env: Record<string, string>;
const N = 3000;
const iccids = Array.from({ length: N }, (_, i) => {
  const body = "89441" + String(i + 1).padStart(13, "0");
  return body + luhnCheckDigit(body);
});
const stdin = iccids.join("\n") + "\n";

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
  env = serverEnv(server.url, server.owner.apiKey);
});
afterAll(() => server?.close());

const lines = (text: string) => text.trimEnd().split("\n");

describe("a slow reader of stdout gets the whole answer", () => {
  it("lookup - as json", async () => {
    const run = await iccidReadSlowly(["lookup", "-", "-o", "json"], { env, input: stdin });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { iccid: string }[]).map((o) => o.iccid)).toEqual(iccids);
  });

  it("lookup - as tsv and csv", async () => {
    const tsv = await iccidReadSlowly(["lookup", "-", "-o", "tsv"], { env, input: stdin });
    expect(tsv.code).toBe(0);
    expect(lines(tsv.stdout).map((line) => line.split("\t")[0])).toEqual(iccids);

    const csv = await iccidReadSlowly(["lookup", "-", "-o", "csv"], { env, input: stdin });
    expect(csv.code).toBe(0);
    expect(lines(csv.stdout)).toHaveLength(N + 1);
    expect(lines(csv.stdout).at(-1)!.startsWith(iccids.at(-1)!)).toBe(true);
  });

  it("validate as json", async () => {
    const run = await iccidReadSlowly(["validate", ...iccids, "--json"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { iccid: string }[]).map((r) => r.iccid)).toEqual(iccids);
  });

  it("validate as csv", async () => {
    const run = await iccidReadSlowly(["validate", ...iccids, "-o", "csv"]);
    expect(run.code).toBe(0);
    expect(lines(run.stdout).slice(1).map((line) => line.split(",")[1])).toEqual(iccids);
  });

  it("usage --json by the hour", async () => {
    const run = await iccidReadSlowly(["usage", "--json", "--granularity", "hour"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(64 * 1024);
    expect((JSON.parse(run.stdout) as { series: unknown[] }).series.length).toBeGreaterThan(24 * 27);
  });

  it("batch to stdout", async () => {
    const file = join(tempDir(), "sims.csv");
    writeFileSync(file, "iccid\n" + stdin);
    const run = await iccidReadSlowly(["batch", file, "-q"], { env });
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(N + 1);
    expect(lines(run.stdout).at(-1)!.startsWith(`${iccids.at(-1)},`)).toBe(true);
  });
});

describe("a reader that stops early (| head)", () => {
  it("batch: a clean exit (0) though the rows it took include malformed ones; read whole, those rows make it 3", async () => {
    const file = join(tempDir(), "mixed.csv");
    // Malformed rows among the first ones, and enough rows after them that the pipe is closed mid-run.
    writeFileSync(file, "iccid\n" + ["12AB", iccids[0], "8944"].join("\n") + "\n" + stdin);
    const head = await iccidIntoHead(["batch", file, "-q"], 3, { env });
    expect(head.stdout.split("\n").slice(0, 3).map((line) => line.split(",")[0])).toEqual(["iccid", "12AB", iccids[0]]);
    expect(head.stderr).toContain("Stopped: the output was closed");
    expect(head.code).toBe(0);
    const whole = await iccid(["batch", file, "-q"], { env });
    expect(whole.code).toBe(3);
  });
});
