import { startTestServer, type TestServer } from "@iccid/server/testing";
import { luhnCheckDigit } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasAnsi, iccid, iccidOnTty, plain, serverEnv } from "./harness.js";

const UK = "89441000000000000018";
const UK_BAD_CHECK = "89441000000000000019";
const withCheck = (body: string) => body + luhnCheckDigit(body);

let server: TestServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
  env = serverEnv(server.url, server.owner.apiKey);
});
afterAll(() => server?.close());

describe("iccid lookup, piped", () => {
  it("prints one tab-separated line per ICCID, no header, no colour", async () => {
    const run = await iccid(["lookup", UK, UK_BAD_CHECK], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(hasAnsi(run.stdout)).toBe(false);
    const lines = run.stdout.trimEnd().split("\n").map((l) => l.split("\t"));
    expect(lines).toHaveLength(2);
    expect(lines[0]!.slice(0, 4)).toEqual([UK, UK, "true", "valid"]);
    expect(lines[0]).toContain("United Kingdom");
    expect(lines[1]!.slice(0, 4)).toEqual([UK_BAD_CHECK, UK_BAD_CHECK, "false", "invalid"]);
  });

  it("--json prints the lookup result for one ICCID and an array for several", async () => {
    const one = await iccid(["lookup", "8944 1000 0000 0000 0018", "--json"], { env });
    expect(one.code).toBe(0);
    const result = JSON.parse(one.stdout);
    expect(result).toMatchObject({ iccid: UK, input: "8944 1000 0000 0000 0018", valid: true, country: { iso2: "GB" } });

    const many = await iccid(["lookup", UK, UK_BAD_CHECK, "--output", "json"], { env });
    expect(JSON.parse(many.stdout).map((r: { valid: boolean }) => r.valid)).toEqual([true, false]);
  });

  it("--output csv has a header and neutralises nothing harmless", async () => {
    const run = await iccid(["lookup", UK, "--output", "csv"], { env });
    const [header, row] = run.stdout.trimEnd().split("\n");
    expect(header!.split(",").slice(0, 4)).toEqual(["input", "iccid", "valid", "luhn"]);
    expect(row!.startsWith(`${UK},${UK},true,valid`)).toBe(true);
  });

  it("reports a malformed ICCID in place without a request and exits 3", async () => {
    const run = await iccid(["lookup", UK, "12AB", "--json"], { env });
    expect(run.code).toBe(3);
    const [ok, bad] = JSON.parse(run.stdout);
    expect(ok.valid).toBe(true);
    expect(bad).toEqual({ input: "12AB", error: { code: "invalid_mii", message: expect.any(String) } });
  });
});

describe("iccid lookup on a terminal", () => {
  it("draws a table with colour", async () => {
    const run = await iccidOnTty(["lookup", UK, UK_BAD_CHECK], { env });
    expect(run.code).toBe(0);
    expect(hasAnsi(run.stdout)).toBe(true);
    const text = plain(run.stdout);
    expect(text).toContain("┌");
    expect(text).toMatch(/ICCID\s+│ Valid/);
    expect(text).toContain("✓ valid");
    expect(text).toContain("✗ bad check digit");
    expect(text).toContain("United Kingdom (GB, +44)");
  });

  it("NO_COLOR keeps the table and drops the colour", async () => {
    const run = await iccidOnTty(["lookup", UK], { env: { ...env, NO_COLOR: "1" } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("┌");
    expect(hasAnsi(run.stdout)).toBe(false);
  });

  it("an empty NO_COLOR does not count", async () => {
    const run = await iccidOnTty(["lookup", UK], { env: { ...env, NO_COLOR: "" } });
    expect(hasAnsi(run.stdout)).toBe(true);
  });
});

describe("iccid lookup, the numbering's country", () => {
  const ONE_NCE = "89882806660004909182";
  const AT_T_OR_BLYK = withCheck("893103801234567890");

  it("shows no country under an international code and the issuer's own beside it, and both readings of ambiguous digits", async () => {
    const run = await iccidOnTty(["lookup", ONE_NCE, AT_T_OR_BLYK], { env: { ...env, NO_COLOR: "1", COLUMNS: "240" } });
    expect(run.code).toBe(0);
    const text = run.stdout.replace(/\s*│\s*/g, " | ");
    expect(text).toContain("+882, issuer in Germany (DE)");
    expect(text).toContain("United States (US, +1)");
    expect(text).toContain("ambiguous_numbering: US AT&T or NL Blyk N.V.");
  });

  it("--json carries issuer.country and the warning's candidates; piped rows end with the issuer's country", async () => {
    const json = JSON.parse((await iccid(["lookup", ONE_NCE, AT_T_OR_BLYK, "--json"], { env })).stdout);
    expect(json[0]).toMatchObject({ country: null, issuer: { name: "1NCE", country: { iso2: "DE", name: "Germany" } } });
    expect(json[1].warnings[0].candidates.map((c: { country: { iso2: string } }) => c.country.iso2)).toEqual(["US", "NL"]);
    const lines = (await iccid(["lookup", ONE_NCE], { env })).stdout.trimEnd().split("\t");
    expect(lines.at(-1)).toBe("DE");
  });
});
