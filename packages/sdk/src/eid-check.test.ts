import { EidBatchResult, EidResult } from "@iccid/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreesWithZod, rejectedAsZodAlone } from "../test/mutations.js";
import { FastEidBatchResult, FastEidResult, isEidBatchResult, isEidResult } from "./eid-check.js";

const EID = "89049032123451234512345678901235";
const full = () => ({
  eid: EID,
  input: `+CEID: ${EID}`,
  valid: false,
  checks: { format: true, mod97: "invalid", expected_check_digits: "35" },
  check_digits: "00",
  layout: "sgp02",
  calling_code: "49",
  country: { iso2: "DE", name: "Germany" },
  manufacturer: { id: "89049032", name: "Example eUICC" },
  warnings: [{ code: "modem_response", message: "read from a modem's answer line" }],
});
const sparse = () => ({
  eid: "35000000000000000000000000000001",
  input: "x",
  valid: true,
  checks: { format: true, mod97: "valid" },
  check_digits: "01",
  layout: "sgp29",
  calling_code: null,
  country: null,
  manufacturer: null,
  warnings: [],
});
const batch = () => ({
  results: [
    { index: 0, ok: true, result: full() },
    { index: 1, ok: true, result: sparse() },
    { index: 2, ok: false, input: "1234", error: { code: "too_short", message: "short" } },
  ],
  summary: { total: 3, ok: 2, failed: 1, valid: 1, invalid: 1, unique: 3 },
});

describe("the fast EID-answer checks", () => {
  it("accept the v1 shapes, and return what zod returns", () => {
    for (const good of [full, sparse]) {
      expect(isEidResult(good())).toBe(true);
      expect(FastEidResult.safeParse(good())).toEqual(EidResult.safeParse(good()));
    }
    expect(isEidBatchResult(batch())).toBe(true);
    expect(FastEidBatchResult.safeParse(batch())).toEqual(EidBatchResult.safeParse(batch()));
  });

  it("never accept what zod rejects, and agree with it on every one- or two-field change", () => {
    fc.assert(agreesWithZod(full, isEidResult, (a) => EidResult.safeParse(a).success), { numRuns: 3000 });
    fc.assert(agreesWithZod(sparse, isEidResult, (a) => EidResult.safeParse(a).success), { numRuns: 1000 });
    fc.assert(agreesWithZod(batch, isEidBatchResult, (a) => EidBatchResult.safeParse(a).success), { numRuns: 5000 });
  });

  it("reject a malformed answer with the same ResponseValidationError as zod alone", () => {
    const answer: Record<string, unknown> = full();
    answer.layout = "sgp03";
    delete answer.checks;
    expect(rejectedAsZodAlone(FastEidResult, EidResult, answer).issues.map((i) => i.path)).toEqual(["checks", "layout"]);

    const items = batch() as unknown as { results: { error?: { code: string } }[] };
    items.results[2]!.error!.code = "invalid_mii"; // an ICCID's error code, not an EID's
    const checked = FastEidBatchResult.safeParse(items);
    expect(checked.success).toBe(false);
    if (!checked.success) expect(checked.error.issues.map((i) => i.path)).toContainEqual(["results", 2, "error", "code"]);
  });
});
