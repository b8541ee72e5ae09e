import { BatchResult } from "@iccid/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { full, sparse } from "../test/lookup-answers.js";
import { agreesWithZod } from "../test/mutations.js";
import { FastBatchResult, isBatchResult } from "./batch-check.js";

const good = () => ({
  results: [
    { index: 0, ok: true, result: full() },
    { index: 1, ok: true, result: sparse() },
    { index: 2, ok: false, input: "12AB", error: { code: "invalid_mii", message: "not an ICCID" } },
    { index: 3, ok: false, input: "89441000000000000018", imsi: "111", error: { code: "too_short", message: "short", field: "imsi" } },
  ],
  summary: { total: 4, ok: 2, failed: 2, valid: 0, invalid: 2, unique: 4 },
});

describe("the fast batch-answer check", () => {
  it("accepts the v1 shape", () => {
    expect(isBatchResult(good())).toBe(true);
  });

  it("keeps fields the contract does not name in an item's result (a newer server's)", () => {
    const answer = good();
    answer.results[0]!.result = { ...full(), roaming_hint: "EU" } as ReturnType<typeof full>;
    const checked = FastBatchResult.safeParse(answer);
    expect(checked.success && (checked.data.results[0] as unknown as { result: { roaming_hint: string } }).result.roaming_hint).toBe("EU");
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
