import { LookupResult } from "@iccid/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreesWithZod } from "../test/mutations.js";
import { checkedAnswer } from "./answer.js";
import { ResponseValidationError } from "./errors.js";
import { FastLookupResult, isLookupResult } from "./lookup-check.js";

const full = () => ({
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
});
const sparse = () => ({ iccid: "8944100000000000001F", input: "x", valid: false, length: 19, checks: { format: true, luhn: "not_applicable" }, check_digit: "F", mii: "89", calling_code: null, country: null, issuer: null, home_network: null, account_number: null, warnings: [], data_version: "v1" });

const zodOk = (answer: unknown) => LookupResult.safeParse(answer).success;
const CALL = { method: "POST", path: "/iccid/lookup" };
const headers = { "content-type": "application/json", "x-request-id": "req_1" };

/** What checkedAnswer throws for `body` with `schema` (or undefined when it accepts). */
function thrownBy(schema: typeof FastLookupResult, body: unknown): unknown {
  try {
    checkedAnswer(CALL, schema, { status: 200, headers, body: JSON.stringify(body) });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("the fast lookup-answer check", () => {
  it("accepts the v1 shapes, and returns what zod returns", () => {
    for (const good of [full, sparse]) {
      expect(isLookupResult(good())).toBe(true);
      expect(FastLookupResult.safeParse(good())).toEqual(LookupResult.safeParse(good()));
    }
  });

  it("never accepts what zod rejects, and agrees with it on every one- or two-field change", () => {
    fc.assert(agreesWithZod(full, isLookupResult, zodOk), { numRuns: 3000 });
    fc.assert(agreesWithZod(sparse, isLookupResult, zodOk), { numRuns: 1000 });
  });

  it("rejects an off-contract answer with the same ResponseValidationError as zod alone", () => {
    const answer: Record<string, unknown> = full();
    answer.valid = "yes";
    delete answer.checks;
    const fast = thrownBy(FastLookupResult, answer) as ResponseValidationError;
    const zodAlone = thrownBy(LookupResult, answer) as ResponseValidationError;
    expect(fast).toBeInstanceOf(ResponseValidationError);
    expect(fast.message).toBe(zodAlone.message);
    expect(fast.issues).toEqual(zodAlone.issues);
    expect(fast.issues.map((i) => i.path)).toEqual(["valid", "checks"]);
  });
});
