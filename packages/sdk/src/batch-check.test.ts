import { BatchResult } from "@iccid/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
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

type Path = (string | number)[];
function paths(value: unknown, at: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((k) => paths((value as Record<string | number, unknown>)[k], [...at, k]))];
}
function set(root: unknown, path: Path, value: unknown, remove: boolean): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) delete node[last];
  else node[last] = value;
}

const ALL_PATHS = paths(good()).filter((p) => p.length > 0);
const odd = fc.constantFrom<unknown>(null, undefined, 0, -1, 1.5, 2 ** 60, "", "x", "GBR", "custom", "valid", "inferred", "numbering-rule", "310", "nope", true, false, [], {}, [1], { code: "hex_digits", message: "m" });

describe("the fast batch-answer check", () => {
  it("accepts the v1 shape", () => {
    expect(isBatchResult(good())).toBe(true);
  });

  it("never accepts what zod rejects, and agrees with it on every one- or two-field change", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...ALL_PATHS), odd, fc.boolean()), { minLength: 1, maxLength: 2 }),
        (changes) => {
          const answer = good();
          for (const [path, value, remove] of changes) {
            try {
              set(answer, path, value, remove);
            } catch {
              return; // a path under a value already replaced
            }
          }
          const zodOk = BatchResult.safeParse(answer).success;
          const fast = isBatchResult(answer);
          if (fast) expect(zodOk).toBe(true);
          expect(fast).toBe(zodOk);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("reports an off-contract answer with zod's issues", () => {
    const answer = good() as unknown as { results: { result: { valid: unknown } }[] };
    answer.results[0]!.result.valid = "yes";
    const checked = FastBatchResult.safeParse(answer);
    expect(checked.success).toBe(false);
    if (!checked.success) expect(checked.error.issues.map((i) => i.path)).toContainEqual(["results", 0, "result", "valid"]);
  });
});
