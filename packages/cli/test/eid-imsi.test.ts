import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasAnsi, iccid, iccidOnTty, plain, serverEnv } from "./harness.js";

// `iccid eid` and `iccid lookup --imsi` with the built binary against a real server.

const EID = "89049032123451234512345678901235";
const EID_NA = "89001039240180124400000000000157";
const UK = "89441000000000000018";

let server: TestServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
  env = serverEnv(server.url, server.owner.apiKey);
});
afterAll(() => server?.close());

describe("iccid eid", () => {
  it("prints one tab-separated line per EID when piped, in argument order", async () => {
    const run = await iccid(["eid", EID, `${EID.slice(0, 30)}00`, EID_NA], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(hasAnsi(run.stdout)).toBe(false);
    const lines = run.stdout.trimEnd().split("\n").map((l) => l.split("\t"));
    expect(lines.map((l) => l.slice(0, 4))).toEqual([
      [EID, EID, "true", "valid"],
      [`${EID.slice(0, 30)}00`, `${EID.slice(0, 30)}00`, "false", "invalid"],
      [EID_NA, EID_NA, "true", "valid"],
    ]);
    expect(lines[0]).toEqual([EID, EID, "true", "valid", "", "sgp02", "49", "DE", "Germany", "89049032", "", "", "", ""]);
    expect(lines[1]![4]).toBe("35");
  });

  it("--json prints the EID result; a modem line is read; --output csv has its header", async () => {
    const one = await iccid(["eid", `+CEID: ${EID}`, "--json"], { env });
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ eid: EID, valid: true, manufacturer: { id: "89049032", name: null }, warnings: [{ code: "modem_response" }] });
    const csv = await iccid(["eid", EID, "--output", "csv"], { env });
    expect(csv.stdout.split("\n")[0]).toBe(
      "input,eid,valid,mod97,expected_check_digits,layout,calling_code,country_iso2,country,manufacturer_id,manufacturer,warnings,error_code,error",
    );
  });

  it("reports a malformed EID in place without asking the server, and exits 3", async () => {
    const run = await iccid(["eid", EID, "1234", "-"], { env, input: `${EID_NA}\n` });
    expect(run.code).toBe(3);
    const lines = run.stdout.trimEnd().split("\n").map((l) => l.split("\t"));
    expect(lines.map((l) => [l[0], l[2], l.at(-2)])).toEqual([
      [EID, "true", ""],
      ["1234", "", "too_short"],
      [EID_NA, "true", ""],
    ]);
  });

  it("draws a table on a terminal of 80 columns", async () => {
    const run = await iccidOnTty(["eid", EID, "8904903212345123451234567890123"], { env, columns: 80 });
    const text = plain(run.stdout);
    // Too narrow for a Notes column: the notes go under their row, whole.
    expect(text).toMatch(/EID +│ Valid +│ Country +│ Issuer +│\r?\n/);
    expect(text).toMatch(/│ 89049032123451234512345678901235 │ ✓ valid +│ Germany \(DE, \+49\) +│ 89049032 +│/);
    expect(text).toMatch(/│ 8904903212345123451234567890123 +│ ✗ error +│/);
    expect(text).toMatch(/│ Notes: too_short: the EID has 31 digits; an EID has 32 +│/);
    for (const line of text.split(/\r?\n/)) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe("iccid lookup --imsi", () => {
  it("shows the IMSI's network beside the ICCID, and the country warning", async () => {
    const json = await iccid(["lookup", UK, "--imsi", "262075201234567", "--json"], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      iccid: UK,
      imsi: { mcc: "262", mnc: "07", network: { name: "O2" }, mvno: { name: "Fonic Prepaid" } },
      warnings: [{ code: "imsi_country_mismatch" }],
    });
    const table = await iccidOnTty(["lookup", UK, "--imsi", "262075201234567"], { env, columns: 160 });
    expect(plain(table.stdout)).toContain("O2 (262-07, DE), MVNO Fonic Prepaid");
    expect(plain(table.stdout)).toContain("imsi_country_mismatch");
  });

  it("refuses a malformed IMSI, or an IMSI with several ICCIDs, as a usage error (exit 2)", async () => {
    const short = await iccid(["lookup", UK, "--imsi", "12345"], { env });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("the IMSI has 5 digits; an IMSI has 14 or 15");
    const many = await iccid(["lookup", UK, UK, "--imsi", "262011234567890"], { env });
    expect(many.code).toBe(2);
    expect(many.stderr).toContain("--imsi goes with one ICCID");
  });

  it("says what the server refused about the IMSI (an MCC no list has)", async () => {
    const run = await iccid(["lookup", UK, "--imsi", "111011234567890"], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("imsi");
    expect(run.stderr).toContain("MCC 111");
  });
});
