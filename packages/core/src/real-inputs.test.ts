import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codes, digits, iccid, parsed } from "../test-support/iccids.js";
import { luhnCheckDigit } from "./luhn.js";
import { normalizeIccid } from "./normalize.js";
import { swapNibbles } from "./nibble-swap.js";
import { parseIccid } from "./parse.js";


/** The EF_ICCID bytes of an ICCID as a card reader dumps them: F-filled to whole bytes, nibbles swapped. */
function rawDump(number: string): string {
  return swapNibbles(number.length % 2 === 0 ? number : `${number}F`);
}

describe("numbers a spreadsheet rounded", () => {
  it.each(["8.9441E+19", "8,94410000000000E+19", " 8.9441e+19 ", "9E+19"])("tells %j that its digits are lost", (input) => {
    expect(parseIccid(input)).toMatchObject({ ok: false, input, error: { code: "invalid_characters", message: expect.stringMatching(/^a spreadsheet rounded this ICCID .* digits are lost; format the column as text/) } });
  });

  it("tells other characters apart", () => {
    for (const input of ["+8.9441E+19", "8.9441E+19x", "89441000000000000018+"]) {
      expect(parseIccid(input), input).toMatchObject({ ok: false, error: { code: "invalid_characters", message: expect.stringMatching(/^the ICCID may hold only digits/) } });
    }
  });
});

describe("modem answers", () => {
  it.each([
    ["+CCID: 89441000000000000018", "+CCID"],
    ["+QCCID: 89441000000000000018", "+QCCID"],
    ['^ICCID: "89441000000000000018"', "^ICCID"],
    ["ICCID: 89441000000000000018", "ICCID"],
    ['+CCID: "89441000000000000018"\r\n\r\nOK', "+CCID"],
    ["  +qccid:8944 1000 0000 0000 0018  ", "+QCCID"],
  ])("reads %j", (input, tag) => {
    const r = parsed(input);
    expect(r.iccid).toBe("89441000000000000018");
    expect(r.input).toBe(input);
    expect(r.valid).toBe(true);
    expect(codes(r)).toEqual(["modem_response"]);
    expect(normalizeIccid(input).modemTag).toBe(tag);
  });

  it("reads the raw file from +CRSM and swaps it back", () => {
    // AT+CRSM=176,12258,0,0,10 on a SIM whose ICCID is 8944100000000000001 (19 digits): 90 00 and the bytes.
    const r = parsed('+CRSM: 144,0,"98440100000000000010"');
    expect(r.iccid).toBe("89441000000000000001");
    expect(codes(r)).toEqual(["modem_response", "nibble_swapped"]);
  });

  it("still rejects a line that only looks like an answer", () => {
    expect(parseIccid("+CCID: ERROR")).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
    expect(parseIccid("+CCID: a:89441000000000000018")).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
  });
});

describe("normalising", () => {
  it("is idempotent on strings made of the characters answers, dumps and filler are made of", () => {
    const unit = fc.constantFrom(..."+^:AFOKCID98 \",1");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (s) => {
        const once = normalizeIccid(s).value;
        expect(normalizeIccid(once).value).toBe(once);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("raw EF_ICCID dumps", () => {
  it("swaps a 20-digit dump back", () => {
    const r = parsed("98 54 40 12 81 20 61 52 84 46");
    expect(r.iccid).toBe("89450421180216254864");
    expect(r.valid).toBe(true);
    expect(codes(r)).toEqual(["nibble_swapped"]);
  });

  it("swaps a 19-digit dump back and drops the filler nibble of its last byte", () => {
    const body = "894921007608614852";
    const full = body + luhnCheckDigit(body);
    const r = parsed(rawDump(full));
    expect(r.iccid).toBe(full);
    expect(codes(r)).toEqual(["nibble_swapped", "padding_stripped"]);
  });

  it("any valid ICCID survives being dumped raw, written in any case, with extra filler bytes", () => {
    fc.assert(
      fc.property(iccid, fc.boolean(), fc.nat(2), (number, lower, fillerBytes) => {
        const dump = rawDump(number) + "FF".repeat(fillerBytes);
        const r = parsed(lower ? dump.toLowerCase() : dump);
        expect(r.iccid).toBe(number);
        expect(r.valid).toBe(true);
        expect(codes(r)[0]).toBe("nibble_swapped");
      }),
      { numRuns: 1000 },
    );
  });
});

describe("F filler", () => {
  it("strips leading filler and says so", () => {
    const r = parsed("FFFF89441000000000000018");
    expect(r.iccid).toBe("89441000000000000018");
    expect(r.warnings).toEqual([{ code: "padding_stripped", message: "leading F filler was removed" }]);
  });

  it("strips filler at both ends", () => {
    const r = parsed(`F894410000000000000${luhnCheckDigit("894410000000000000")}FF`);
    expect(r.warnings[0]?.message).toMatch(/leading and trailing/);
  });
});

describe("a failing check digit says which digit would pass", () => {
  it("for a typo and for a number printed without its check digit", () => {
    const r = parsed("89450421180216254865");
    expect(r.checks).toEqual({ format: true, luhn: "invalid", expected_check_digit: "4", missing_check_digit: "9" });
  });

  it("has no suggestion when the number passes or is hex", () => {
    expect(parsed("89450421180216254864").checks).toEqual({ format: true, luhn: "valid" });
    expect(parsed("8988303000012345678A").checks).toEqual({ format: true, luhn: "not_applicable" });
  });

  it("cannot append to a number of the greatest length", () => {
    const body = "89".padEnd(21, "3");
    const bad = body + String((Number(luhnCheckDigit(body)) + 1) % 10);
    expect(parsed(bad).checks).toEqual({ format: true, luhn: "invalid", expected_check_digit: luhnCheckDigit(body) });
  });

  it("replacing the last digit with expected_check_digit, or appending missing_check_digit, always passes", () => {
    fc.assert(
      fc.property(digits(16, 19), (d) => {
        const number = `89${d}`;
        const r = parsed(number);
        if (r.valid) return;
        const fixed = parsed(number.slice(0, -1) + r.checks.expected_check_digit);
        expect(fixed.valid).toBe(true);
        if (r.checks.missing_check_digit !== undefined) expect(parsed(number + r.checks.missing_check_digit).valid).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
