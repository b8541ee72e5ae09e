import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codes, digits, iccid, parsed } from "../test-support/iccids.js";
import { normalizeIccid } from "./normalize.js";
import { parseEid } from "./eid.js";
import { parseIccid } from "./parse.js";

// Numbers as phones, documents, spreadsheets and chats hand them over: full-width digits and quotes.

/** Full-width digits and letters are their ASCII forms + 0xFEE0. */
const fullWidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
const QUOTE_PAIRS = [['"', '"'], ["'", "'"], ["\u201C", "\u201D"], ["\u2018", "\u2019"], ["\u201E", "\u201C"], ["\u00AB", "\u00BB"], ["\uFF02", "\uFF02"]] as const;

describe("full-width digits", () => {
  it("reads ８９４４… as the digits they are, with a warning", () => {
    const r = parsed("８９４４１０００００００００００００１８");
    expect(r).toMatchObject({ iccid: "89441000000000000018", valid: true, input: "８９４４１０００００００００００００１８" });
    expect(codes(r)).toEqual(["full_width_digits"]);
  });

  it("reads full-width spaces, dashes and hex letters, and mixed widths", () => {
    const r = parsed("８９４４\u3000１０００－００００ 0000 0018");
    expect(r.iccid).toBe("89441000000000000018");
    expect(codes(r)).toEqual(["full_width_digits"]);
    const hex = parsed(fullWidth("8988303000012345678A"));
    expect(hex.iccid).toBe("8988303000012345678A");
    expect(codes(hex)).toEqual(["full_width_digits", "hex_digits"]);
  });

  it("still refuses what is not a number however wide it is written", () => {
    expect(parseIccid("８９４４ＸＹＺ")).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
  });
});

describe("quotes around a number", () => {
  it.each(QUOTE_PAIRS.map(([open, close]) => [`${open}89441000000000000018${close}`]))("reads %s, with a warning", (input) => {
    const r = parsed(input);
    expect(r.iccid).toBe("89441000000000000018");
    expect(r.input).toBe(input);
    expect(codes(r)).toContain("quotes_stripped");
  });

  it("reads quotes with spaces inside and out, and nested quotes", () => {
    expect(codes(parsed(' " 8944 1000 0000 0000 0018 " '))).toEqual(["quotes_stripped"]);
    expect(parsed("\"'89441000000000000018'\"").iccid).toBe("89441000000000000018");
  });

  it("reads a spreadsheet's text formula, =\"…\", as quotes, in an ICCID and an EID", () => {
    expect(parsed('="89441000000000000018"')).toMatchObject({ iccid: "89441000000000000018", valid: true });
    expect(codes(parsed('="89441000000000000018"'))).toEqual(["quotes_stripped"]);
    expect(parseEid('="89049032123451234512345678901235"')).toMatchObject({ eid: "89049032123451234512345678901235", warnings: [{ code: "quotes_stripped" }] });
    // Only around the whole number: an equals sign anywhere else stays an invalid character.
    expect(parseIccid('=89441000000000000018')).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
    expect(parseIccid('="89441000000000000018')).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
  });

  it("keeps a quote on one side only, or inside the number, an invalid character", () => {
    expect(parseIccid('"89441000000000000018')).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
    expect(parseIccid('8944100000"0000000018')).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
  });

  it("leaves a modem's quoted answer to the modem reading, without a quotes warning", () => {
    expect(codes(parsed('^ICCID: "89441000000000000018"'))).toEqual(["modem_response"]);
  });
});

describe("written-form properties", () => {
  it("any valid ICCID written in full width parses to itself, with the warning", () => {
    fc.assert(
      fc.property(iccid, (number) => {
        const r = parsed(fullWidth(number));
        expect(r.iccid).toBe(number);
        expect(r.valid).toBe(true);
        expect(codes(r)).toContain("full_width_digits");
      }),
    );
  });

  it("any valid ICCID in any pair of quotes, in either width, parses to itself, with the warning", () => {
    fc.assert(
      fc.property(iccid, fc.constantFrom(...QUOTE_PAIRS), fc.boolean(), (number, [open, close], wide) => {
        const r = parsed(`${open}${wide ? fullWidth(number) : number}${close}`);
        expect(r.iccid).toBe(number);
        expect(codes(r)).toContain("quotes_stripped");
        expect(codes(r).includes("full_width_digits")).toBe(wide || open === "\uFF02");
      }),
    );
  });

  it("normalising stays idempotent with quotes, full-width forms and filler in the mix", () => {
    const unit = fc.constantFrom(..."8940F\"'\u201C\u201D\u00AB\u00BB\uFF18\uFF26\uFF02 :+");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (s) => {
        const once = normalizeIccid(s).value;
        expect(normalizeIccid(once).value).toBe(once);
      }),
      { numRuns: 3000, examples: [['F"8944"F'], ["F'1'"], ["+CCID:'\"89'\""]] },
    );
  });
});
