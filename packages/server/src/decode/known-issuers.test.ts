import { luhnCheckDigit, type LookupResult } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { IccidDecoder } from "./decoder.js";
import { sameIssuer } from "./registry/names.js";

// Cards the issue names, read through the registry the server ships: each answer with where it came from.

const decoder = new IccidDecoder();

/** A card number under `prefix`: zeros, then the check digit. */
function card(prefix: string): LookupResult {
  const body = prefix.padEnd(18, "0");
  const outcome = decoder.decode(body + luhnCheckDigit(body));
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
}

describe("issuers of the issue's examples", () => {
  it.each([
    // prefix, issuer, matched prefix, origin, confidence, country, calling code, home network
    ["8901410", "AT&T", "8901410", "numbering-rule", "inferred", "US", "1", ["310", "410"]],
    ["8901150", "AT&T", "8901150", "numbering-rule", "inferred", "US", "1", ["310", "150"]],
    ["8901260", "T-Mobile", "8901260", "numbering-rule", "inferred", "US", "1", ["310", "260"]],
    ["89302720", "Rogers", "89302720", "numbering-rule", "inferred", "CA", "1", ["302", "720"]],
    ["8986011", "China Unicom", "898601", "numbering-rule", "inferred", "CN", "86", ["460", "01"]],
    ["898600", "China Mobile", "898600", "curated", "inferred", "CN", "86", ["460", "00"]],
    ["8999701", "Beeline", "8999701", "itu-e118", "registered", "KZ", "997", ["401", "01"]],
  ] as const)("%s is %s (%s, %s)", (prefix, name, matched, origin, confidence, iso2, code, [mcc, mnc]) => {
    const r = card(prefix);
    expect(r.issuer).toMatchObject({ prefix: matched, origin, confidence, source: "itu-e118" });
    expect(sameIssuer(r.issuer!.name, name), `${r.issuer!.name} is ${name}`).toBe(true);
    expect(r.country?.iso2).toBe(iso2);
    expect(r.calling_code).toBe(code);
    expect(r.home_network).toEqual({ mcc, mnc });
  });

  it("keeps the registered name beside the current one", () => {
    expect(card("8999701").issuer).toMatchObject({ registered_name: "Kar-Tel Ltd" });
    expect(card("894411").issuer?.registered_name).toBe("Telecom Securicor Cellular Radio Ltd");
    expect(card("894430").issuer?.registered_name).toBe("Mercury Personal Communications");
  });

  it("no longer reads US network codes as ITU issuers of calling code 1", () => {
    expect(card("8901170").issuer?.name).not.toMatch(/Tampnet/);
    expect(card("8901490").country?.iso2).not.toBe("CA");
    expect(card("8901490").issuer?.origin).not.toBe("itu-e118");
  });

  it("has the issuers of the ITU list's repository that its npm package lacks", () => {
    expect(card("893134").issuer).toMatchObject({ prefix: "893134", name: "CleverEnable B.V.", origin: "itu-e118" });
    expect(card("894425").issuer).toMatchObject({ prefix: "894425", name: "Tango Networks UK Ltd", country: { iso2: "GB" } });
    // pySim's test card.
    const sysmocom = decoder.decode("8949440000001155314");
    expect(sysmocom).toMatchObject({ ok: true, result: { valid: true, country: { iso2: "DE" }, issuer: { prefix: "894944", name: expect.stringMatching(/^Sysmocom/) } } });
  });
});
