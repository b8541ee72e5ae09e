import { LookupResult } from "@iccid/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { full, sparse } from "../test/lookup-answers.js";
import { agreesWithZod, rejectedAsZodAlone } from "../test/mutations.js";
import { FastLookupResult, isLookupResult } from "./lookup-check.js";

const zodOk = (answer: unknown) => LookupResult.safeParse(answer).success;

describe("the fast lookup-answer check", () => {
  it("accepts the v1 shapes, and returns what zod returns", () => {
    for (const good of [full, sparse]) {
      expect(isLookupResult(good())).toBe(true);
      expect(FastLookupResult.safeParse(good())).toEqual(LookupResult.safeParse(good()));
    }
  });

  it("keeps fields the contract does not name (a newer server's), as the SDK README says", () => {
    const checked = FastLookupResult.safeParse({ ...full(), roaming_hint: "EU" });
    expect(checked.success && (checked.data as unknown as { roaming_hint: string }).roaming_hint).toBe("EU");
  });

  it("never accepts what zod rejects, and agrees with it on every one- or two-field change", () => {
    fc.assert(agreesWithZod(full, isLookupResult, zodOk), { numRuns: 3000 });
    fc.assert(agreesWithZod(sparse, isLookupResult, zodOk), { numRuns: 1000 });
  });

  it("rejects an off-contract answer with the same ResponseValidationError as zod alone", () => {
    const answer: Record<string, unknown> = full();
    answer.valid = "yes";
    delete answer.checks;
    expect(rejectedAsZodAlone(FastLookupResult, LookupResult, answer).issues.map((i) => i.path)).toEqual(["valid", "checks"]);
  });
});
