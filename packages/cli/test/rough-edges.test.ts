import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOneLineError, iccid, iccidOnTty, plain, serverEnv, tempDir } from "./harness.js";

// What a new user ran into: terminal width, silent waits, unusable paths, odd input, a wrong base URL.
const UK = "89441000000000000018";
const US = "89014103211118510720";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
});
afterAll(() => server?.close());

describe("tables on an 80-column terminal", () => {
  it("lookup and keys list fit, with every ICCID and key id whole", async () => {
    const account = await server.createAccount();
    const env = { ...serverEnv(server.url, account.apiKey) };
    expect((await iccid(["login", "--email", account.email, "--password-stdin"], { env, input: account.password })).code).toBe(0);
    expect((await iccid(["keys", "create", "--name", "the build server in the basement, second rack from the left"], { env })).code).toBe(0);

    for (const args of [["lookup", UK, US, "8944 1000 0000 0000 0018F"], ["keys", "list"]]) {
      const run = await iccidOnTty(args, { env, columns: 80 });
      expect(run.code).toBe(0);
      const lines = plain(run.stdout).split(/\r?\n/).filter((line) => line.includes("│") || line.includes("─"));
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
      if (args[0] === "lookup") expect(run.stdout).toContain(US);
      else expect(run.stdout).toContain(account.keyId);
    }

    // keys list drops the least important columns whole instead of cutting every cell ("2026-1…").
    const keys = plain((await iccidOnTty(["keys", "list"], { env, columns: 80 })).stdout);
    const rows = keys.split(/\r?\n/).filter((line) => line.startsWith("│")).map((line) => line.split("│").slice(1, -1).map((cell) => cell.trim()));
    expect(rows[0]!.slice(0, 2)).toEqual(["ID", "Name"]);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/…$/);
    expect(rows.flat()).toContain(account.keyId);
    // Least important first: when it was made, then its last use, expiry, key and scopes; id and name stay
    // (the note below the table names them in the table's order, wrapped to the terminal too).
    const note = keys.slice(keys.lastIndexOf("┘") + 1).trim();
    for (const line of note.split(/\r?\n/)) expect(line.length).toBeLessThanOrEqual(80);
    expect(note.split(/\s+/).join(" ")).toMatch(/^\((Key, )?Created(, Expires)?(, Last used)? left out to fit the terminal; --json shows every field\)$/);
  });

  it("lookup, eid and validate show every note whole, under its row when the table does not fit", async () => {
    const env = serverEnv(server.url, (await server.createAccount()).apiKey);
    const runs = [
      { args: ["lookup", "+CCID: " + UK, "８９４４１０００００００００００００１８", UK.slice(0, -1)], notes: ["modem_response", "full_width_digits", `printed without its check digit? then ${UK}`] },
      { args: ["lookup", UK, "--imsi", "262075201234567"], notes: ["imsi_country_mismatch"] },
      { args: ["eid", "+CEID: 89049032123451234512345678901235"], notes: ["modem_response"] },
      { args: ["validate", UK.slice(0, -1), "12ab"], notes: [`printed without its check digit? then ${UK}`, "invalid_mii: an ICCID starts with 89 (the telecom industry identifier)"], code: 3 },
    ];
    for (const { args, notes, code = 0 } of runs) {
      const run = await iccidOnTty(args, { env, columns: 80 });
      expect(run.code, args.join(" ")).toBe(code);
      const lines = plain(run.stdout).split(/\r?\n/).filter((line) => line.includes("│"));
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
      const rows = lines.map((line) => line.split("│").slice(1, -1).map((cell) => cell.trim()));
      for (const cell of rows.flat()) expect(cell, args.join(" ")).not.toMatch(/…$/);
      // The notes read down their column, or across the line under a row that starts "Notes:".
      const column = rows[0]!.indexOf("Notes");
      const read = rows.map((cells) => (cells.length === 1 ? cells[0]! : (cells[column] ?? ""))).filter(Boolean).join(" ");
      for (const note of notes) expect(read, args.join(" ")).toContain(note);
    }
  });

  it("help wraps at the terminal's width on word boundaries", async () => {
    for (const args of [["--help"], ["batch", "--help"], ["lookup", "--help"], ["validate", "--help"]]) {
      const run = await iccidOnTty(args, { columns: 80 });
      expect(run.code).toBe(0);
      const lines = plain(run.stdout).split(/\r?\n/);
      for (const line of lines) expect(line.length, `${args.join(" ")}: ${line}`).toBeLessThanOrEqual(80);
    }
    const batch = plain((await iccidOnTty(["batch", "--help"], { columns: 80 })).stdout).replace(/\r?\n/g, "\n");
    expect(batch).toContain("one output row per input row, in input\norder:");
  });

  it("usage wraps a long value under itself", async () => {
    const account = await server.createAccount();
    const run = await iccidOnTty(["usage"], { env: serverEnv(server.url, account.apiKey), columns: 80 });
    expect(run.code).toBe(0);
    const lines = plain(run.stdout).split(/\r?\n/);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const quota = lines.findIndex((line) => line.startsWith("Quota"));
    expect(lines[quota + 1]).toMatch(/^ {12}\S/); // under the value, past "Rate limit  "
  });
});

describe("rate limits", () => {
  it("a wait is announced on stderr, then the lookup goes through; --no-wait fails at once with 5", async () => {
    // One request per 20 s: long enough that the next runs surely fall in the same window on a slow
    // machine, short enough that the SDK waits it out (it waits up to 60 s).
    await server.setPlan("one-per-20s", { rate_limit: 1, window_seconds: 20, monthly_lookups: 1000 });
    const account = await server.createAccount({ plan: "one-per-20s" });
    const env = serverEnv(server.url, account.apiKey);
    expect((await iccid(["lookup", UK], { env })).code).toBe(0);

    const failFast = await iccid(["--no-wait", "lookup", UK], { env });
    expect(failFast.code).toBe(5);
    expectOneLineError(failFast, /^iccid: error: rate_limited: .*retry in \d+ s/);

    const waited = await iccid(["lookup", UK], { env });
    expect(waited.code).toBe(0);
    expect(waited.stdout).toContain(UK);
    expect(waited.stderr).toMatch(/^iccid: rate limited; retrying in \d+ s \(--no-wait fails instead\)\n$/);
  });
});

describe("files", () => {
  const env = () => serverEnv(server.url, server.owner.apiKey);

  it("--out or --errors in a folder that does not exist is one line, exit 1", async () => {
    const dir = tempDir();
    const out = join(dir, "missing", "results.csv");
    const missing = await iccid(["batch", "examples/sims.csv", "--out", out], { env: env() });
    expect(missing.code).toBe(1);
    expectOneLineError(missing, /^iccid: error: --out .*results\.csv: the folder .*missing does not exist\n$/);
    const run = await iccid(["batch", "examples/sims.csv", "--out", join(dir, "ok.csv"), "--errors", join(dir, "nope", "e.csv")], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/--errors .*e\.csv: the folder .*nope does not exist/);
  });

  it("a binary file is refused as not text, and text that is not UTF-8 as such, exit 1; past the first block such bytes are said", async () => {
    const file = join(tempDir(), "photo.png");
    writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const run = await iccid(["batch", file], { env: env() });
    expect(run.code).toBe(1);
    expectOneLineError(run, /^iccid: error: .*photo\.png is not a text file/);
    // As Excel on Windows saves a plain "CSV": Windows-1252.
    const windows1252 = join(tempDir(), "export.csv");
    writeFileSync(windows1252, Buffer.concat([Buffer.from("Kunde;ICCID\r\nM"), Buffer.from([0xfc]), Buffer.from(`ller GmbH;${UK}\r\n`)]));
    const notUtf8 = await iccid(["batch", windows1252], { env: env() });
    expect(notUtf8.code).toBe(1);
    expectOneLineError(notUtf8, /^iccid: error: .*export\.csv is not UTF-8 text; save it as UTF-8 \(in Excel: "CSV UTF-8"\) and try again\n$/);
    // Past the first block (64 KiB), the file is read on and the bytes that are not UTF-8 are counted and
    // said; a U+FFFD the file holds as UTF-8 is its own text, not counted.
    const late = join(tempDir(), "late.csv");
    const long = Array.from({ length: 3 }, (_, n) => `A${n};${UK};${"x".repeat(30_000)}\r\n`).join("");
    writeFileSync(late, Buffer.concat([Buffer.from(`Kunde;ICCID;Notiz\r\nB\uFFFD;${UK};y\r\n${long}M`), Buffer.from([0xfc]), Buffer.from(`ller GmbH;${UK};z\r\n`)]));
    const lateRun = await iccid(["batch", late, "--format", "jsonl"], { env: env() });
    expect(lateRun.code).toBe(0);
    expect(lateRun.stdout.trimEnd().split("\n").map((line) => JSON.parse(line).input.Kunde)).toEqual(["B\uFFFD", "A0", "A1", "A2", "M\uFFFDller GmbH"]);
    expect(lateRun.stderr).toContain('note: 1 character of ' + late + ' past its start was not UTF-8 and was read as "\uFFFD"; save it as UTF-8');
  });

  it("a file separated by semicolons or tabs is read by its first line or its sep= line; --delimiter sets what that line cannot tell", async () => {
    const dir = tempDir();
    // As a spreadsheet writes CSV where a comma is the decimal mark: semicolons, CRLF, quotes around text,
    // and rows of separators alone below the data (cells once formatted, now empty), which are no rows.
    const semicolons = join(dir, "export.csv");
    writeFileSync(semicolons, `id;"SIM number";"note"\r\n1;"${UK}";"pool 1, EU"\r\n;;\r\n2;${US};2,5\r\n;;\r\n ;"";\r\n`);
    const run = await iccid(["batch", semicolons], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split("\n")).toEqual([
      expect.stringMatching(/^id,SIM number,note,iccid,valid,/),
      expect.stringMatching(new RegExp(`^1,${UK},"pool 1, EU",${UK},true,`)),
      expect.stringMatching(new RegExp(`^2,${US},"2,5",${US},true,`)),
    ]);
    // Excel's hint line names the separator and is no row.
    const hinted = join(dir, "hinted.csv");
    writeFileSync(hinted, `sep=;\r\nKunde;ICCID\r\nA;${UK}\r\n`);
    const withHint = await iccid(["batch", hinted, "--format", "jsonl"], { env: env() });
    expect(withHint.code).toBe(0);
    expect(withHint.stdout.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ row: 1, ok: true, input: { Kunde: "A", ICCID: UK } })]);
    // Excel's "Unicode Text": UTF-16 with its byte order mark, tabs between the cells.
    const unicodeText = join(dir, "unicode.txt");
    writeFileSync(unicodeText, Buffer.from(`\uFEFFKunde\tICCID\r\nMüller\t${UK}\r\n`, "utf16le"));
    const fromUtf16 = await iccid(["batch", unicodeText, "--format", "jsonl"], { env: env() });
    expect(fromUtf16.code).toBe(0);
    expect(JSON.parse(fromUtf16.stdout)).toMatchObject({ row: 1, ok: true, input: { Kunde: "Müller", ICCID: UK } });
    // A single column has no separator to tell by; --delimiter tab splits the rows that follow.
    const tabs = join(dir, "tabs.tsv");
    writeFileSync(tabs, `iccid\n${UK}\tfirst\n`);
    const asTab = await iccid(["batch", tabs, "--delimiter", "tab", "--format", "jsonl"], { env: env() });
    expect(asTab.code).toBe(0);
    expect(JSON.parse(asTab.stdout)).toMatchObject({ row: 1, ok: true, input: { iccid: UK } });
    const bad = await iccid(["batch", tabs, "--delimiter", ";;"], { env: env() });
    expect(bad.code).toBe(2);
    expectOneLineError(bad, /--delimiter.*must be one character \(or "tab"\), not a quote or a line end/);
  });

  it("an empty input leaves an empty --out, not the results of an earlier run", async () => {
    const dir = tempDir();
    const out = join(dir, "results.csv");
    writeFileSync(out, "iccid,valid\n89441000000000000018,true\n");
    const empty = join(dir, "empty.csv");
    writeFileSync(empty, "");
    const run = await iccid(["batch", empty, "--out", out], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/holds no rows; nothing to do; .*results\.csv now empty/);
    expect(readFileSync(out, "utf8")).toBe("");
  });
});

describe("arguments", () => {
  it("lookup - reads ICCIDs from stdin, one per line", async () => {
    const run = await iccid(["lookup", "-"], { env: serverEnv(server.url, server.owner.apiKey), input: `${UK}\n\n8944 1000 0000 0000 0018\n${US}\n` });
    expect(run.code).toBe(0);
    const rows = run.stdout.trimEnd().split("\n").map((line) => line.split("\t"));
    expect(rows.map((row) => row[1])).toEqual([UK, UK, US]);
  });

  it("usage --from after --to is a usage error, 2", async () => {
    const run = await iccid(["usage", "--from", "2026-12-01", "--to", "2026-11-01"], { env: serverEnv(server.url, server.owner.apiKey) });
    expect(run.code).toBe(2);
    expectOneLineError(run, /--from 2026-12-01 must be before --to 2026-11-01/);
  });
});

describe("a base URL that is not an ICCID Lookup server", () => {
  let web: Server;
  let url: string;
  beforeAll(async () => {
    const page = `<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>${"<p>Nothing here.</p>\n".repeat(500)}</body></html>`;
    web = createServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end(page));
    await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => web.close(() => resolve())));

  it("gets its HTML error page summarised in one line", async () => {
    const run = await iccid(["lookup", UK], { env: serverEnv(url, server.owner.apiKey) });
    expect(run.code).toBe(1);
    expectOneLineError(run, /^iccid: error: HTTP 404: an HTML page, not an API answer: "404 Not Found"; is the base URL .* an ICCID Lookup server\?\n$/);
  });
});
