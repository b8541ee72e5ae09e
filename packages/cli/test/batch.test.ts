import { readdirSync, readFileSync, writeFileSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { luhnCheckDigit } from "@iccid/core";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, iccid, iccidOnTty, plain, serverEnv, spawnIccid, tempDir } from "./harness.js";

let server: TestServer;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
  env = serverEnv(server.url, server.owner.apiKey);
  dir = tempDir("iccid-batch-");
});
afterAll(() => server?.close());

const csv = (text: string) => parse(text, { relax_column_count: true }) as string[][];
const withCheckDigit = (body: string) => body + luhnCheckDigit(body);

/** n rows "iccid,ref" with a valid ICCID per row and ref = the row number. */
function bigCsv(path: string, n: number): void {
  const lines = ["iccid,ref"];
  for (let i = 1; i <= n; i++) lines.push(`${withCheckDigit("89441" + String(i).padStart(13, "0"))},r${i}`);
  writeFileSync(path, lines.join("\n") + "\n");
}

describe("iccid batch on a messy CSV", () => {
  it("handles a BOM, CRLF, quotes, blank lines, extra and ragged columns, one output row per input row", async () => {
    const input = join(dir, "messy.csv");
    const errors = join(dir, "messy-errors.csv");
    writeFileSync(
      input,
      "\uFEFFcustomer,ICCID,note\r\n" +
        '"Acme, Inc.",89441000000000000018,"said ""hi"""\r\n' +
        "\r\n" +
        'Globex,8944 1000 0000 0000 0018,"two\r\nlines"\r\n' +
        "Initech,89441000000000000019\r\n" + // short row: no note
        "Hooli,12345,malformed,extra,cells\r\n" + // long row
        "\r\n" +
        "=cmd|' /C calc'!A0,89441000000000000018,-2+3\r\n",
    );
    const run = await iccid(["batch", input, "--errors", errors], { env });
    expect(run.code).toBe(3); // one malformed row
    const rows = csv(run.stdout);
    expect(rows[0]).toEqual(["customer", "ICCID", "note", "lookup_iccid", "valid", "luhn", "length", "calling_code", "country_iso2", "country", "issuer_prefix", "issuer", "issuer_source", "account_number", "warnings", "error_code", "error",
      "issuer_registered_name", "issuer_origin", "issuer_confidence", "home_mcc", "home_mnc", "expected_check_digit", "missing_check_digit", "issuer_country_iso2"]);
    expect(rows).toHaveLength(6);
    expect(rows.map((r) => r.length)).toEqual(Array(6).fill(25));
    expect(rows[1]!.slice(0, 5)).toEqual(["Acme, Inc.", "89441000000000000018", 'said "hi"', "89441000000000000018", "true"]);
    expect(rows[2]!.slice(0, 5)).toEqual(["Globex", "8944 1000 0000 0000 0018", "two\r\nlines", "89441000000000000018", "true"]);
    expect(rows[3]!.slice(0, 6)).toEqual(["Initech", "89441000000000000019", "", "89441000000000000019", "false", "invalid"]);
    expect(rows[3]!.slice(-3)).toEqual(["8", "0", "GB"]); // the check digit that would pass, or the one to append; the issuer's country
    expect(rows[4]!.slice(0, 3)).toEqual(["Hooli", "12345", "malformed"]);
    expect(rows[4]![rows[0]!.indexOf("error_code")]).toBe("invalid_mii");
    // Formula injection: the cells come back with a leading apostrophe.
    expect(rows[5]!.slice(0, 3)).toEqual(["'=cmd|' /C calc'!A0", "89441000000000000018", "'-2+3"]);
    expect(run.stderr).toContain("note: 1 row had more cells than the header");

    const failed = csv(readFileSync(errors, "utf8"));
    expect(failed).toHaveLength(2);
    expect(failed[1]!.slice(0, 2)).toEqual(["Hooli", "12345"]);
  });

  it("runs the sample file, one row per input row, in order", async () => {
    const out = join(dir, "sims-out.csv");
    const run = await iccid(["batch", join(EXAMPLES, "sims.csv"), "--out", out], { env });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
    const input = csv(readFileSync(join(EXAMPLES, "sims.csv"), "utf8"));
    const output = csv(readFileSync(out, "utf8"));
    expect(output).toHaveLength(input.length);
    expect(output.slice(1).map((r) => r.slice(0, 2))).toEqual(input.slice(1).map((r) => [r[0], r[1]!.replace(/^=/, "'=")]));
    expect(run.stderr).toMatch(/rows\s+20/);
  });

  it("finds the column of a file without a header, reads stdin, writes JSONL", async () => {
    const run = await iccid(["batch", "-", "--format", "jsonl"], { env, input: "89441000000000000018\n89441000000000000019\nnope\n" });
    expect(run.code).toBe(3);
    const lines = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.row, l.ok, l.input.column_1])).toEqual([
      [1, true, "89441000000000000018"],
      [2, true, "89441000000000000019"],
      [3, false, "nope"],
    ]);
    expect(lines[0].result.country.iso2).toBe("GB");
    expect(lines[2].error.code).toBe("invalid_characters");
  });

  it("takes --column by name or number, and says which columns exist when it is wrong", async () => {
    const input = join(dir, "two.csv");
    writeFileSync(input, "a,b\nx,89441000000000000018\n");
    const byName = await iccid(["batch", input, "--column", "b"], { env });
    expect(byName.code).toBe(0);
    expect(csv(byName.stdout)[1]![2]).toBe("89441000000000000018");
    const byNumber = await iccid(["batch", input, "--column", "2", "--format", "jsonl"], { env });
    expect(JSON.parse(byNumber.stdout).ok).toBe(true);
    const wrong = await iccid(["batch", input, "--column", "sim"], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"a", "b"');
  });

  it("an empty file is nothing to do", async () => {
    const input = join(dir, "empty.csv");
    writeFileSync(input, "");
    const run = await iccid(["batch", input], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
  });

  it("a missing file is an error (1) that says so in words", async () => {
    const missing = join(dir, "missing.csv");
    const run = await iccid(["batch", missing], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`iccid: error: cannot read ${missing}: no such file\n`);
  });
});

describe("iccid batch at size", () => {
  it("streams 100,000 rows in order, exactly one row per input row", async () => {
    const input = join(dir, "100k.csv");
    const out = join(dir, "100k-out.csv");
    bigCsv(input, 100_000);
    const run = await iccid(["batch", input, "--out", out, "--concurrency", "8"], { env });
    expect(run.code).toBe(0);
    const rows = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(rows).toHaveLength(100_001);
    for (let i = 1; i <= 100_000; i += 997) expect(rows[i]!.split(",")[1]).toBe(`r${i}`);
    expect(rows[100_000]!.split(",")[1]).toBe("r100000");
    // Not a TTY: plain milestone lines and a summary, no spinner escape codes.
    expect(run.stderr).toMatch(/^batch: [\d,]+ rows · [\d,]+ rows\/s · \d+% · ETA /m);
    expect(run.stderr).toMatch(/rows\s+100,000/);
    expect(run.stderr).not.toContain("\u001b[");
  }, 120_000);

  it("Ctrl-C leaves whole rows and says how to resume; --resume completes with one row per input row", async () => {
    const input = join(dir, "resume.csv");
    const out = join(dir, "resume-out.csv");
    const errors = join(dir, "resume-errors.csv");
    bigCsv(input, 60_000);
    // One request at a time and small enough steps that the interrupt lands mid-run.
    const { child, done } = spawnIccid(["batch", input, "--out", out, "--errors", errors, "--concurrency", "1"], { env });
    // Interrupted once some rows are out, however long that takes on a busy machine (the test's timeout bounds it).
    while (!(existsSync(out) && statSync(out).size > 200_000) && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    const first = await done;
    expect(first.code).toBe(130);
    expect(first.stderr).toContain("Interrupted");
    expect(first.stderr).toContain(`--resume`);
    const partial = readFileSync(out, "utf8");
    expect(partial.endsWith("\n")).toBe(true);
    const written = partial.trimEnd().split("\n").length - 1;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(60_000);

    const second = await iccid(["batch", input, "--out", out, "--errors", errors, "--concurrency", "1", "--resume"], { env });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`skipped \\(resumed\\)\\s+${written.toLocaleString("en-US")}`));
    const rows = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(rows).toHaveLength(60_001);
    expect(rows[0]!.startsWith("iccid,ref,")).toBe(true);
    rows.slice(1).forEach((row, i) => {
      if (row.split(",")[1] !== `r${i + 1}`) throw new Error(`row ${i + 1} is ${row}`);
    });
  }, 120_000);

  it("an exhausted quota mid-run stops with 5, whole rows written, and the resume command", async () => {
    await server.setPlan("small", { rate_limit: 1000, window_seconds: 60, monthly_lookups: 2500 });
    const account = await server.createAccount({ plan: "small" });
    const input = join(dir, "quota.csv");
    const out = join(dir, "quota-out.csv");
    bigCsv(input, 5000);
    // The key given on the command line: the resume hint must not print it (it would land in CI logs).
    const run = await iccid(["--api-key", account.apiKey, "batch", input, "--out", out, "--concurrency", "1"], { env: serverEnv(server.url) });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("Stopped by an error");
    expect(run.stderr).toContain(`To carry on: iccid batch ${input} --out ${out} --concurrency 1 --resume\n`);
    expect(run.stderr).toContain("Pass the same API key again (--api-key or ICCID_API_KEY)");
    expect(run.stderr).not.toContain(account.apiKey);
    expect(run.stderr).not.toContain(account.apiKey.slice(0, 12));
    expect(run.stderr).toMatch(/iccid: error: quota_exceeded/);
    const rows = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(rows).toHaveLength(2001); // two batches of 1000 fit in 2500 lookups; the third is refused whole
    expect(run.stderr).toContain(`${out} holds the first 2,000 rows, each complete.`);
  });

  it("--resume without --out is a usage error", async () => {
    const run = await iccid(["batch", join(EXAMPLES, "sims.csv"), "--resume"], { env });
    expect(run.code).toBe(2);
  });

  it("refuses the other commands' -o, --output and --json, naming --format and --out, and writes no file", async () => {
    const files = readdirSync(dir);
    for (const flags of [["--output", "json"], ["-o", "jsonl"], ["--json"]]) {
      const run = await iccid(["batch", join(EXAMPLES, "sims.csv"), ...flags], { env, cwd: dir });
      expect(run.code, flags.join(" ")).toBe(2);
      expect(run.stderr).toBe("iccid: error: batch has no -o, --output or --json: use --format csv|jsonl (and --out FILE for a file)\n");
      expect(run.stdout).toBe("");
      expect(readdirSync(dir)).toEqual(files);
    }
  });
});

describe("iccid batch on a terminal", () => {
  it("shows a spinner and a summary table on stderr", async () => {
    const out = join(dir, "tty-out.csv");
    const run = await iccidOnTty(["batch", join(EXAMPLES, "sims.csv"), "--out", out], { env });
    expect(run.code).toBe(3);
    const text = plain(run.stdout);
    expect(text).toContain("Done → ");
    expect(text).toMatch(/│ rows\s+│ 20\s+│/);
    expect(text).toMatch(/│ failed \(malformed\)\s+│ 5\s+│/);
  });
});
