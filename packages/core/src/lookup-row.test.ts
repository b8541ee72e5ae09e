import { describe, expect, it } from "vitest";
import { csvLine } from "./csv-cell.js";
import { LOOKUP_ROW, LOOKUP_ROW_COLUMNS, lookupRowCsv, rowCells, rowOutcome, type LookupOutcome } from "./lookup-row.js";
import { result } from "../test-support/lookup-result.js";

const resultCells = (outcome: LookupOutcome) => rowCells(LOOKUP_ROW, outcome);

describe("the lookup row", () => {
  it("keeps its columns in the published order (scripts read them by position)", () => {
    expect(LOOKUP_ROW_COLUMNS).toEqual([
      "iccid", "valid", "luhn", "length", "calling_code", "country_iso2", "country", "issuer_prefix", "issuer", "issuer_source",
      "account_number", "warnings", "error_code", "error", "issuer_registered_name", "issuer_origin", "issuer_confidence",
      "home_mcc", "home_mnc", "expected_check_digit", "missing_check_digit", "issuer_country_iso2",
    ]);
  });

  it("fills a result's columns, and only the error columns of a failed lookup", () => {
    expect(resultCells({ ok: true, result })).toEqual([
      "89014100000000000004", "false", "invalid", "20", "1", "US", "United States", "8901410", "AT&T", "custom",
      "000000000000", "hex_digits;non_standard_length", "", "", "=AT&T Mobility, LLC", "numbering-rule", "inferred",
      "310", "410", "7", "", "US",
    ]);
    const failed = resultCells({ input: "12", ok: false, error: { code: "invalid_mii", message: "starts with 12" } });
    expect(failed.filter((cell) => cell !== "")).toEqual(["invalid_mii", "starts with 12"]);
    expect(failed.indexOf("invalid_mii")).toBe(LOOKUP_ROW_COLUMNS.indexOf("error_code"));
  });

  it("leaves the columns of absent parts empty", () => {
    const bare = { ...result, calling_code: null, country: null, issuer: null, home_network: null, account_number: null, warnings: [] };
    expect(csvLine(resultCells({ ok: true, result: bare }))).toBe("89014100000000000004,false,invalid,20,,,,,,,,,,,,,,,,7,,\n");
  });

  it("encodes as CSV what its cells are, quoted and neutralised where they need it", () => {
    const failed: LookupOutcome = { ok: false, input: "12", error: { code: "invalid_mii", message: 'starts with "12", not 89' } };
    for (const outcome of [{ ok: true, result } as const, failed]) {
      expect(lookupRowCsv(outcome) + "\n").toBe(csvLine(resultCells(outcome)));
    }
    expect(lookupRowCsv({ ok: true, result })).toContain(`,"'=AT&T Mobility, LLC",`);
  });

  it("tells a row's outcome from its result, as the row's valid cell does", () => {
    expect(rowOutcome({ ok: true, result })).toBe("invalid");
    expect(rowOutcome({ ok: true, result: { ...result, valid: true } })).toBe("valid");
    expect(rowOutcome({ ok: false, input: "12", error: { code: "invalid_mii", message: "m" } })).toBe("failed");
  });
});
