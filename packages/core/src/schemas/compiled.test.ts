import { describe, expect, it, vi } from "vitest";
import { compile } from "zod";
import { BatchResult } from "./batch.js";
import { compiled } from "./compiled.js";
import { LookupResult } from "./lookup.js";
import { result } from "../../test-support/lookup-result.js";

// compile() as zod has it, recorded, so the tests see when compiled() calls it.
vi.mock("zod", async (actual) => {
  const zod = await actual<typeof import("zod")>();
  return { ...zod, compile: vi.fn(zod.compile) };
});

const batch = {
  results: [
    { index: 0, ok: true, result },
    { index: 1, ok: false, input: "12", error: { code: "invalid_mii", message: "starts with 12" } },
  ],
  summary: { total: 2, ok: 1, failed: 1, valid: 0, invalid: 1, unique: 2 },
};

describe("a compiled wire schema", () => {
  it("is compiled by zod, not left on the runtime parser, for the lookup and batch answers", () => {
    expect(() => compile(LookupResult, { strict: true })).not.toThrow();
    expect(() => compile(BatchResult, { strict: true })).not.toThrow();
  });

  it("compiles on the first parse, once, and not before", () => {
    vi.mocked(compile).mockClear();
    const checker = compiled(LookupResult);
    expect(compile).not.toHaveBeenCalled();
    checker.safeParse(result);
    checker.safeParse(result);
    expect(compile).toHaveBeenCalledOnce();
    expect(vi.mocked(compile).mock.calls[0]![0]).toBe(LookupResult);
  });

  it("accepts what the schema accepts, with the same output (fields the schema does not name stripped)", () => {
    const sent = { ...result, extra: 1, checks: { ...result.checks, more: true } };
    const checked = compiled(LookupResult).safeParse(sent);
    expect(checked).toEqual(LookupResult.safeParse(sent));
    expect(checked.data).toEqual(result);
    expect(compiled(BatchResult).safeParse(batch)).toEqual(BatchResult.safeParse(batch));
  });

  it("refuses what the schema refuses, with the same issues", () => {
    const broken = { ...batch, results: [batch.results[0], { ...batch.results[1], error: { code: "nope", message: 1 } }] };
    const checked = compiled(BatchResult).safeParse(broken);
    expect(checked.success).toBe(false);
    expect(checked.error?.issues).toEqual(BatchResult.safeParse(broken).error?.issues);
    expect(checked.error?.issues.map((i) => i.path)).toEqual([["results", 1, "error", "code"], ["results", 1, "error", "message"]]);
  });
});
