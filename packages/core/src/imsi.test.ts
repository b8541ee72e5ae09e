import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseImsi } from "./imsi.js";

describe("parseImsi", () => {
  it("reads 14 and 15 digits, as people write them, and names the MCC", () => {
    expect(parseImsi("262011234567890")).toEqual({ ok: true, imsi: "262011234567890", mcc: "262" });
    expect(parseImsi("26201123456789")).toEqual({ ok: true, imsi: "26201123456789", mcc: "262" });
    expect(parseImsi(" 262-01 1234.567890 ")).toEqual({ ok: true, imsi: "262011234567890", mcc: "262" });
    expect(parseImsi("２６２０１１２３４５６７８９０")).toMatchObject({ ok: true, imsi: "262011234567890" });
  });

  it("refuses what is not an IMSI, saying why", () => {
    expect(parseImsi("")).toMatchObject({ ok: false, error: { code: "empty" } });
    expect(parseImsi("26201123456789A")).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
    expect(parseImsi("2620112345678")).toMatchObject({ ok: false, error: { code: "too_short", message: "the IMSI has 13 digits; an IMSI has 14 or 15" } });
    expect(parseImsi("2620112345678901")).toMatchObject({ ok: false, error: { code: "too_long" } });
    expect(parseImsi(7 as unknown as string)).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
  });

  it("never throws, and accepts exactly 14 or 15 digits", () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const parsed = parseImsi(input);
        if (parsed.ok) expect(parsed.imsi).toMatch(/^[0-9]{14,15}$/);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,20}$/), (digits) => {
        expect(parseImsi(digits).ok).toBe(digits.length === 14 || digits.length === 15);
      }),
    );
  });
});
