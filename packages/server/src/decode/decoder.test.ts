import { luhnCheckDigit } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { IccidDecoder } from "./decoder.js";
import { PrefixIndex } from "./prefix-index.js";

const withCheck = (body: string) => body + luhnCheckDigit(body);
const decoder = new IccidDecoder();

function result(input: string) {
  const out = decoder.decode(input);
  if (!out.ok) throw new Error(`expected ${input} to decode, got ${out.error.code}`);
  return out.result;
}

describe("IccidDecoder", () => {
  it("decodes the contract's UK example", () => {
    expect(result("8944 1000 0000 0000 0018")).toEqual({
      iccid: "89441000000000000018",
      input: "8944 1000 0000 0000 0018",
      valid: true,
      length: 20,
      checks: { format: true, luhn: "valid" },
      check_digit: "8",
      mii: "89",
      calling_code: "44",
      country: { iso2: "GB", name: "United Kingdom" },
      issuer: {
        prefix: "894410",
        name: "Vodafone plc",
        source: "itu-e118",
       
        origin: "itu-e118",
        confidence: "registered",
        country: { iso2: "GB", name: "United Kingdom" },
      },
      home_network: null,
      account_number: "0000000000001",
      warnings: [],
      data_version: decoder.dataVersion,
    });
  });

  it("decodes a Telia Denmark ICCID", () => {
    const r = result("89450421180216254864");
    expect(r.country).toEqual({ iso2: "DK", name: "Denmark" });
    expect(r.issuer).toMatchObject({ prefix: "894504", name: "Telia Sonera A/S" });
    expect(r.account_number).toBe("2118021625486");
  });

  it("takes the longest prefix where the first alternative of the ITU regex is shorter", () => {
    // 88310 (Airnity SAS) and 883100 (MediaLincc Ltd) both match; e118-iin-list's own matcher returns 88310.
    const r = result(withCheck("898831001234567890"));
    expect(r.issuer).toMatchObject({ prefix: "89883100", name: "MediaLincc Ltd", source: "itu-e118" });
    expect(r.calling_code).toBe("883");
    expect(r.country).toBeNull();
    const shorter = result(withCheck("898831091234567890"));
    expect(shorter.issuer).toMatchObject({ prefix: "8988310", name: "Airnity SAS" });
  });

  it("reads ITU's North American issuers as 891…, and not 8901… (the US network-code form)", () => {
    const itu = result(withCheck("891000123456789012"));
    expect(itu.issuer).toMatchObject({ prefix: "891000", name: "Whibey Telephone Company", origin: "itu-e118" });
    expect(itu.country?.iso2).toBe("US");
    const us = result(withCheck("890100012345678901"));
    expect(us.calling_code).toBe("1");
    expect(us.issuer?.name).not.toBe("Whibey Telephone Company");
  });

  it("resolves calling code 1 countries from the issuer", () => {
    expect(result(withCheck("891283123456789012")).country).toEqual({ iso2: "PR", name: "Puerto Rico" });
    expect(result(withCheck("891007123456789012")).country?.iso2).toBe("CA");
    expect(result(withCheck("891020123456789012")).country?.iso2).toBe("KN");
  });

  it("gives no country for calling code 1 with an unknown issuer", () => {
    const unknown = result(withCheck("891079999912345678"));
    expect(unknown.calling_code).toBe("1");
    expect(unknown.issuer).toBeNull();
    expect(unknown.country).toBeNull();
    expect(unknown.account_number).toBeNull();
  });

  it("names international networks without a country", () => {
    const r = result(withCheck("8988216012345678901"));
    expect(r.calling_code).toBe("882");
    expect(r.country).toBeNull();
    expect(r.issuer?.name).toMatch(/Thuraya/);
    expect(result(withCheck("8987099012345678901")).country).toBeNull();
  });

  it("gives no country for a code several countries share when the issuer is unknown", () => {
    const r = result(withCheck("897999912345678901"));
    expect(r.calling_code).toBe("7");
    expect(r.country).toBeNull();
  });

  it("takes the country from the issuer where a code is shared", () => {
    const jersey = new IccidDecoder([{ prefix: "894478", name: "A Jersey issuer", country_iso2: "JE" }]);
    expect(jersey.decode(withCheck("894478123456789012"))).toMatchObject({
      ok: true,
      result: { calling_code: "44", country: { iso2: "JE", name: "Jersey" } },
    });
  });

  it("reads Kazakhstan's E.118 code 997", () => {
    const r = result(withCheck("8999701123456789012"));
    expect(r.calling_code).toBe("997");
    expect(r.country).toEqual({ iso2: "KZ", name: "Kazakhstan" });
    expect(r.issuer).toMatchObject({ prefix: "8999701", origin: "itu-e118", confidence: "registered" });
  });

  it("reports an unknown issuer as null, not an error", () => {
    const r = result(withCheck("899999912345678901"));
    expect(r.issuer).toBeNull();
    expect(r.valid).toBe(true);
  });

  it("passes grammar failures through with their code", () => {
    expect(decoder.decode("12AB")).toMatchObject({ ok: false, error: { code: "invalid_mii" } });
  });

  it("lets custom prefixes win at equal length and longer ones win over ITU", () => {
    const custom = new IccidDecoder([
      { prefix: "894410", name: "Our MVNO", country_iso2: "GB" },
      { prefix: "8944100", name: "Our IoT range", country_iso2: null },
      { prefix: "89999", name: "Private range", country_iso2: "DE" },
    ]);
    expect(custom.decode(withCheck("894410500000000000"))).toMatchObject({
      ok: true,
      result: { issuer: { prefix: "894410", name: "Our MVNO", source: "custom" } },
    });
    expect(custom.decode(withCheck("894410000000000000"))).toMatchObject({
      ok: true,
      // No country of its own, and 44 is shared by GB, GG, IM and JE: the code alone names no country.
      result: { issuer: { prefix: "8944100", source: "custom", origin: "custom" }, country: null },
    });
    expect(custom.decode(withCheck("8945042118021625486"))).toMatchObject({
      ok: true,
      result: { issuer: { source: "itu-e118" } },
    });
    expect(custom.decode(withCheck("899990000000000000"))).toMatchObject({
      ok: true,
      result: { country: { iso2: "DE" }, issuer: { name: "Private range" } },
    });
    expect(custom.dataVersion).not.toBe(decoder.dataVersion);
    expect(custom.dataVersion).toMatch(/^registry\.\d+\.[0-9a-f]+(\.[a-z0-9]+-\d{4}-\d{2}-\d{2})+\+custom\.3\.[0-9a-f]+$/);
  });

  it("resolves every North American ITU issuer to a country", () => {
    // The ITU spells names its own way ("Dominican Rep.", "Saint Kitts and Nevis"); all must resolve.
    for (const body of ["891010", "891011", "891282", "891012", "891013", "891014", "891015", "891016", "891028",
      "891017", "891008", "891018", "891019", "891025", "891283", "891020", "891021", "891022", "891023", "891024",
      "891000", "891284"]) {
      const r = result(withCheck(`${body}123456789012`));
      expect(r.country, body).not.toBeNull();
    }
  });
});

describe("PrefixIndex", () => {
  const entry = (prefix: string, source: "itu-e118" | "custom" = "itu-e118") => ({ prefix, custom: source === "custom" });

  it("finds the longest match, not the first", () => {
    const index = new PrefixIndex([entry("8944"), entry("894410"), entry("89441")]);
    expect(index.longestMatch("89441012345")?.prefix).toBe("894410");
    expect(index.longestMatch("89441999999")?.prefix).toBe("89441");
    expect(index.longestMatch("89449999999")?.prefix).toBe("8944");
    expect(index.longestMatch("89459999999")).toBeUndefined();
  });

  it("keeps a custom entry over an ITU entry with the same prefix, in any order", () => {
    expect(new PrefixIndex([entry("8944", "custom"), entry("8944")]).longestMatch("894400000")?.custom).toBe(true);
    expect(new PrefixIndex([entry("8944"), entry("8944", "custom")]).longestMatch("894400000")?.custom).toBe(true);
  });

  it("names no country under an international code, and the issuer's own country on the issuer", () => {
    const onece = result(withCheck("898828066600049091"));
    expect(onece.calling_code).toBe("882");
    expect(onece.country).toBeNull();
    expect(onece.issuer).toMatchObject({ prefix: "8988280", name: "1NCE", country: { iso2: "DE", name: "Germany" } });
    const global = result(withCheck("898830712345678901"));
    expect(global.country).toBeNull();
    const inmarsat = result(withCheck("898709912345678901"));
    expect(inmarsat.country).toBeNull();
    // A national card's issuer country is its country.
    expect(result("89450421180216254864").issuer?.country).toEqual({ iso2: "DK", name: "Denmark" });
  });

  it("reads Russian cards as 89 7 01 + the MNC of MCC 250, inferred, and 89701 as Russia whatever follows", () => {
    const regional = result(withCheck("897011212345678901"));
    expect(regional.country?.iso2).toBe("RU");
    expect(regional.issuer).toMatchObject({ prefix: "8970112", name: "Baykalwestcom", confidence: "inferred" });
    expect(regional.home_network).toEqual({ mcc: "250", mnc: "12" });
    const smarts = result(withCheck("897010712345678901"));
    expect(smarts.issuer).toMatchObject({ name: "SMARTS", origin: "numbering-rule", confidence: "inferred" });
    const unlisted = result(withCheck("897017712345678901"));
    expect(unlisted.issuer).toBeNull();
    expect(unlisted.country?.iso2).toBe("RU");
    // Other digits after 897 decide nothing: +7 is Russia's and Kazakhstan's, and no numbering evidence says more.
    const other = result(withCheck("897200012345678901"));
    expect(other.calling_code).toBe("7");
    expect(other.country).toBeNull();
    // Kazakhstan's ITU issuers are under 997.
    expect(result(withCheck("899970112345678901")).country?.iso2).toBe("KZ");
  });

  it("weighs 89 + a US MCC and MNC against the Dutch reading of the same digits", () => {
    // Evidence names AT&T at 8931041 and no Dutch issuer holds 893104: the US reading, without a warning.
    const att = result(withCheck("893104101234567890"));
    expect(att.country?.iso2).toBe("US");
    expect(att.calling_code).toBe("1");
    expect(att.issuer).toMatchObject({ name: "AT&T", country: { iso2: "US", name: "United States" } });
    expect(att.home_network).toEqual({ mcc: "310", mnc: "410" });
    expect(att.warnings).toEqual([]);
    // Evidence names AT&T at 8931038 and ITU registers 893103 to Blyk: AT&T first, both candidates.
    const blyk = result(withCheck("893103801234567890"));
    expect(blyk.country?.iso2).toBe("US");
    expect(blyk.warnings).toEqual([
      expect.objectContaining({
        code: "ambiguous_numbering",
        candidates: [
          { country: { iso2: "US", name: "United States" }, issuer: expect.objectContaining({ name: "AT&T" }), home_network: { mcc: "310", mnc: "380" } },
          { country: { iso2: "NL", name: "Netherlands" }, issuer: expect.objectContaining({ prefix: "893103", name: "Blyk N.V." }), home_network: null },
        ],
      }),
    ]);
    // The network list alone (T-Mobile 310-260) yields to a registered Dutch issuer (893102), and says so.
    const dutch = result(withCheck("893102601234567890"));
    expect(dutch.country?.iso2).toBe("NL");
    expect(dutch.issuer).toMatchObject({ prefix: "893102" });
    expect(dutch.warnings[0]?.candidates?.map((c) => c.country.iso2)).toEqual(["NL", "US"]);
    // No US network under the digits: the Dutch reading alone (KPN, 310-800 no longer operating).
    expect(result("8931080019073497795").warnings).toEqual([]);
    expect(result("8931080019073497795").issuer?.name).toMatch(/KPN/);
  });
});
