import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLuhnValid, luhnCheckDigit } from "./luhn.js";
import { normalizeIccid } from "./normalize.js";
import { parseIccid, type ParsedIccid } from "./parse.js";

function parsed(input: string): ParsedIccid {
  const result = parseIccid(input);
  if (!result.ok) throw new Error(`expected ${input} to pass, got ${result.error.code}`);
  return result;
}

describe("parseIccid on real-world numbers", () => {
  it("accepts a 20-digit Telia Denmark ICCID (the e118-iin-list example)", () => {
    const r = parsed("89450421180216254864");
    expect(r).toMatchObject({ iccid: "89450421180216254864", valid: true, length: 20, check_digit: "4", mii: "89" });
    expect(r.checks).toMatchObject({ format: true, luhn: "valid" });
    expect(r.warnings).toEqual([]);
  });

  it("accepts the contract's UK example written in groups", () => {
    const r = parsed("8944 1000 0000 0000 0018");
    expect(r.iccid).toBe("89441000000000000018");
    expect(r.input).toBe("8944 1000 0000 0000 0018");
    expect(r.valid).toBe(true);
  });

  it("accepts a 19-digit ICCID as a standard length", () => {
    const body = "894921007608614852";
    const r = parsed(body + luhnCheckDigit(body));
    expect(r.length).toBe(19);
    expect(r.warnings).toEqual([]);
    expect(r.valid).toBe(true);
  });

  it("strips F padding from a 19-digit ICCID stored as 20 nibbles, with a warning", () => {
    const body = "894921007608614852";
    const full = body + luhnCheckDigit(body);
    const r = parsed(`${full}f`);
    expect(r.iccid).toBe(full);
    expect(r.warnings.map((w) => w.code)).toEqual(["padding_stripped"]);
    expect(r.valid).toBe(true);
  });

  it("reports a wrong check digit as format-valid but not valid", () => {
    const r = parsed("89450421180216254865");
    expect(r.checks).toMatchObject({ format: true, luhn: "invalid", expected_check_digit: "4" });
    expect(r.valid).toBe(false);
  });

  it("accepts the US form written 8901…", () => {
    const body = "890141032111185107";
    const r = parsed(body + luhnCheckDigit(body));
    expect(r.valid).toBe(true);
    expect(r.iccid.startsWith("8901")).toBe(true);
  });

  it("passes hex digits with a warning and no Luhn verdict", () => {
    const r = parsed("8988303000012345678A");
    expect(r.checks.luhn).toBe("not_applicable");
    expect(r.valid).toBe(false);
    expect(r.warnings.map((w) => w.code)).toEqual(["hex_digits"]);
  });

  it.each([
    ["18 digits", 18],
    ["21 digits", 21],
    ["22 digits", 22],
  ])("warns on %s as non-standard", (_label, length) => {
    const body = "89".padEnd(length - 1, "7");
    const r = parsed(body + luhnCheckDigit(body));
    expect(r.warnings.map((w) => w.code)).toEqual(["non_standard_length"]);
    expect(r.valid).toBe(true);
  });

  it("drops dashes, dots and surrounding whitespace, and upper-cases", () => {
    expect(parsed("  8945-0421.1802 1625 4864\n").iccid).toBe("89450421180216254864");
    expect(parsed("8988303000012345678a").iccid).toBe("8988303000012345678A");
  });
});

describe("parseIccid errors", () => {
  it.each([
    ["", "empty"],
    ["   ", "empty"],
    ["FFFF", "empty"],
    ["- . -", "empty"],
    ["8944100000000000001G", "invalid_characters"],
    ["89441000000000000018é", "invalid_characters"],
    ["12AB", "invalid_mii"],
    ["99441000000000000018", "invalid_mii"],
    ["8", "too_short"],
    ["894410000000000", "too_short"],
    ["89441000000000000018123", "too_long"],
  ])("%j is %s", (input, code) => {
    const r = parseIccid(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(code);
      expect(r.error.message.length).toBeGreaterThan(5);
      expect(r.input).toBe(input);
    }
  });

  it("judges the length after padding is stripped", () => {
    expect(parseIccid("89441000000000000FFFFF")).toMatchObject({ ok: false, error: { code: "too_short" } });
  });
});

describe("grammar properties", () => {
  const digits = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });

  it("normalise is idempotent", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const once = normalizeIccid(s).value;
        expect(normalizeIccid(once).value).toBe(once);
      }),
      { numRuns: 2000, examples: [["F+A:B"], ["-A:"], ["98F"], ["+CRSM: 1,2,98"]] },
    );
  });

  it("a body plus its computed check digit always passes Luhn", () => {
    fc.assert(
      fc.property(digits(1, 30), (body) => {
        expect(isLuhnValid(body + luhnCheckDigit(body))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("changing any one digit always fails Luhn", () => {
    fc.assert(
      fc.property(digits(17, 21), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, delta) => {
        const good = body + luhnCheckDigit(body);
        const i = at % good.length;
        const changed = String((Number(good[i]) + delta) % 10);
        const bad = good.slice(0, i) + changed + good.slice(i + 1);
        expect(isLuhnValid(bad)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("parse never throws and is consistent on any string", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), digits(0, 30).map((d) => `89${d}`)), (s) => {
        const r = parseIccid(s);
        if (r.ok) {
          expect(r.valid).toBe(r.checks.luhn === "valid");
          expect(r.length).toBeGreaterThanOrEqual(18);
          expect(r.length).toBeLessThanOrEqual(22);
          expect(r.iccid.startsWith("89")).toBe(true);
        } else {
          expect(r.error.code).toMatch(/^(empty|invalid_characters|invalid_mii|too_short|too_long)$/);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("a valid ICCID parses the same however it is grouped", () => {
    fc.assert(
      fc.property(digits(16, 18), fc.array(fc.constantFrom(" ", "-", "."), { maxLength: 5 }), (d, seps) => {
        const body = `89${d}`;
        const iccid = body + luhnCheckDigit(body);
        let written = iccid;
        seps.forEach((sep, n) => {
          const at = 1 + ((n * 7) % (written.length - 1));
          written = written.slice(0, at) + sep + written.slice(at);
        });
        expect(parsed(written).iccid).toBe(iccid);
      }),
    );
  });
});
