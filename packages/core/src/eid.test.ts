import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eidCheckDigits, parseEid } from "./eid.js";

const VALID = ["89049032123451234512345678901235", "89001039240180124400000000000157"];

describe("parseEid", () => {
  it("reads the issue's test vectors as valid, with their SGP.02 fields", () => {
    expect(parseEid(VALID[0]!)).toMatchObject({
      ok: true,
      valid: true,
      checks: { format: true, mod97: "valid" },
      check_digits: "35",
      layout: "sgp02",
      country_code: "49",
      issuer_id: "89049032",
      warnings: [],
    });
    expect(parseEid(VALID[1]!)).toMatchObject({ valid: true, check_digits: "57", country_code: "1", issuer_id: "89001039" });
  });

  it("finds every single changed digit, and names the check digits that would pass", () => {
    for (const eid of VALID) {
      for (let i = 0; i < eid.length; i++) {
        for (const digit of "0123456789") {
          if (digit === eid[i]) continue;
          const changed = eid.slice(0, i) + digit + eid.slice(i + 1);
          const parsed = parseEid(changed);
          expect(parsed.ok && parsed.valid, changed).toBe(false);
          if (!parsed.ok) throw new Error(changed);
          const fixed = changed.slice(0, 30) + parsed.checks.expected_check_digits!;
          expect(parseEid(fixed)).toMatchObject({ valid: true });
        }
      }
    }
  });

  it("completes any 30 digits into an EID that passes, and refuses the other 96 check-digit pairs", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{30}$/), (first30) => {
        const digits = eidCheckDigits(first30);
        expect(parseEid(first30 + digits)).toMatchObject({ ok: true, valid: true });
        const other = String((Number(digits) + 1) % 100).padStart(2, "0");
        expect(parseEid(first30 + other)).toMatchObject({ ok: true, valid: false, checks: { expected_check_digits: digits } });
      }),
    );
  });

  it("reads an EID as people and modems write it, saying so", () => {
    expect(parseEid("8904 9032 1234 5123 4512 3456 7890 1235")).toMatchObject({ eid: VALID[0], valid: true, warnings: [] });
    expect(parseEid("89049032-12345123-45123456-78901235")).toMatchObject({ eid: VALID[0], valid: true });
    for (const line of [`+CEID: ${VALID[0]}`, `%XEID: "${VALID[0]}"`, `EID: ${VALID[0]}`, `+CEID: ${VALID[0]}\r\nOK`]) {
      expect(parseEid(line), line).toMatchObject({ eid: VALID[0], valid: true, warnings: [{ code: "modem_response" }] });
    }
    expect(parseEid(`"${VALID[0]}"`)).toMatchObject({ eid: VALID[0], warnings: [{ code: "quotes_stripped" }] });
    const fullWidth = VALID[0]!.replace(/[0-9]/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0));
    expect(parseEid(fullWidth)).toMatchObject({ eid: VALID[0], valid: true, warnings: [{ code: "full_width_digits" }] });
  });

  it("takes SGP.29 EIDs, which need not start with 89, without SGP.02's fields", () => {
    const first30 = "123456789012345678901234567890";
    expect(parseEid(first30 + eidCheckDigits(first30))).toMatchObject({ valid: true, layout: "sgp29", country_code: null, issuer_id: null });
  });

  it("refuses what is not an EID, naming why", () => {
    expect(parseEid("")).toMatchObject({ ok: false, error: { code: "empty" } });
    expect(parseEid(" - ")).toMatchObject({ ok: false, error: { code: "empty" } });
    expect(parseEid("8904903212345123451234567890123A")).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
    expect(parseEid(VALID[0]!.slice(1))).toMatchObject({ ok: false, error: { code: "too_short", message: "the EID has 31 digits; an EID has 32" } });
    expect(parseEid(`${VALID[0]}1`)).toMatchObject({ ok: false, error: { code: "too_long" } });
    expect(parseEid(42 as unknown as string)).toMatchObject({ ok: false, error: { code: "invalid_characters" } });
  });

  it("never throws, and reads its own normalised output as itself", () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const parsed = parseEid(input);
        if (parsed.ok) expect(parseEid(parsed.eid)).toMatchObject({ ok: true, eid: parsed.eid, valid: parsed.valid });
      }),
    );
  });
});
