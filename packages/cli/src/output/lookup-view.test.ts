import { LOOKUP_ROW_COLUMNS, type LookupResult } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { palette } from "./colour.js";
import type { LookupOutcome } from "./lookup-columns.js";
import { renderOutcomes } from "./lookup-view.js";

const result: LookupResult = {
  iccid: "89441000000000000018",
  input: "8944 1000 0000 0000 0018",
  valid: true,
  length: 20,
  checks: { format: true, luhn: "valid" },
  check_digit: "8",
  mii: "89",
  calling_code: "44",
  country: { iso2: "GB", name: "United Kingdom" },
  issuer: { prefix: "894410", name: "Vodafone plc", source: "itu-e118", origin: "itu-e118", confidence: "registered", country: { iso2: "GB", name: "United Kingdom" } },
  home_network: null,
  account_number: "0000000000001",
  warnings: [],
  data_version: "test",
};
const outcomes: LookupOutcome[] = [
  { input: result.input, ok: true, result },
  { input: "12", ok: false, error: { code: "invalid_mii", message: "an ICCID starts with 89" } },
];

describe("lookup rendering", () => {
  it("a table for people, coloured only when asked", () => {
    const plain = renderOutcomes(outcomes, "table", palette(false));
    expect(plain).toContain("│ 89441000000000000018 │ ✓ valid");
    expect(plain).toContain("invalid_mii: an ICCID starts with 89");
    expect(plain).not.toContain("\u001b[");
    expect(renderOutcomes(outcomes, "table", palette(true))).toContain("\u001b[32m✓ valid\u001b[39m");
  });

  it("tab-separated lines for pipes, with the same columns as CSV minus the header", () => {
    const tsv = renderOutcomes(outcomes, "tsv", palette(false)).split("\n");
    const csv = renderOutcomes(outcomes, "csv", palette(false)).split("\n");
    expect(tsv[0]!.split("\t")).toEqual(csv[1]!.split(",").map((c) => c.replace(/^"|"$/g, "")));
    const errorAt = 1 + LOOKUP_ROW_COLUMNS.indexOf("error_code"); // after the input column
    expect(tsv[1]!.split("\t").slice(errorAt, errorAt + 2)).toEqual(["invalid_mii", "an ICCID starts with 89"]);
  });
});
