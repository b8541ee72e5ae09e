import { BatchResult } from "@iccid/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreesWithZod } from "../test/mutations.js";
import { FastBatchResult, isBatchResult } from "./batch-check.js";

const good = () => ({
  results: [
    {
      index: 0,
      ok: true,
      result: {
        iccid: "89441000000000000018",
        input: "8944 1000 0000 0000 0018",
        valid: false,
        length: 20,
        checks: { format: true, luhn: "invalid", expected_check_digit: "8", missing_check_digit: "3" },
        check_digit: "8",
        mii: "89",
        calling_code: "44",
        country: { iso2: "GB", name: "United Kingdom" },
        issuer: { prefix: "894410", name: "Vodafone", source: "itu-e118", registered_name: "Vodafone plc", origin: "curated", confidence: "inferred" },
        home_network: { mcc: "234", mnc: "15" },
        account_number: "0000000000001",
        warnings: [{ code: "non_standard_length", message: "unusual" }],
        data_version: "v1",
      },
    },
    { index: 1, ok: true, result: { iccid: "8944100000000000001F", input: "x", valid: false, length: 19, checks: { format: true, luhn: "not_applicable" }, check_digit: "F", mii: "89", calling_code: null, country: null, issuer: null, home_network: null, account_number: null, warnings: [], data_version: "v1" } },
    { index: 2, ok: false, input: "12AB", error: { code: "invalid_mii", message: "not an ICCID" } },
  ],
  summary: { total: 3, ok: 2, failed: 1, valid: 0, invalid: 2, unique: 3 },
});

describe("the fast batch-answer check", () => {
  it("accepts the v1 shape", () => {
    expect(isBatchResult(good())).toBe(true);
  });

  it("never accepts what zod rejects, and agrees with it on every one- or two-field change", () => {
    fc.assert(agreesWithZod(good, isBatchResult, (answer) => BatchResult.safeParse(answer).success), { numRuns: 5000 });
  });

  it("reports an off-contract answer with zod's issues", () => {
    const answer = good() as unknown as { results: { result: { valid: unknown } }[] };
    answer.results[0]!.result.valid = "yes";
    const checked = FastBatchResult.safeParse(answer);
    expect(checked.success).toBe(false);
    if (!checked.success) expect(checked.error.issues.map((i) => i.path)).toContainEqual(["results", 0, "result", "valid"]);
  });
});
