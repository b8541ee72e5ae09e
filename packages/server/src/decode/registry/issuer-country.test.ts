import { luhnCheckDigit } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { IccidDecoder } from "../decoder.js";

// An issuer answers the country its registration names, not the main country of the calling code it is
// registered under; one a numbering rule infers from a network answers the network's country.

const decoder = new IccidDecoder();
const card = (prefix: string) => {
  const body = prefix.padEnd(18, "0");
  const outcome = decoder.decode(body + luhnCheckDigit(body));
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
};

describe("an issuer's own country", () => {
  it("is South Sudan for NOW under Sudan's 249, whose digits stay its calling code", () => {
    expect(card("8924905")).toMatchObject({ calling_code: "249", country: { iso2: "SS" }, issuer: { prefix: "8924905", country: { iso2: "SS" } } });
    expect(card("8924999").country?.iso2).toBe("SD");
  });

  it("is Bonaire for Telbo under 599, which Curaçao's numbering rule also reads", () => {
    expect(card("8959978")).toMatchObject({ calling_code: "599", country: { iso2: "BQ" }, issuer: { name: "Telbo" } });
    expect(card("8959991").country?.iso2).toBe("CW");
  });

  it("is the network's for an issuer a numbering rule reads, where the network's country has a calling code of its own", () => {
    expect(card("8997205")).toMatchObject({ calling_code: "972", country: { iso2: "PS" }, issuer: { name: "Jawwal", origin: "numbering-rule" }, home_network: { mcc: "425", mnc: "05" } });
    expect(card("8997206")).toMatchObject({ country: { iso2: "PS" }, issuer: { name: "Ooredoo" } });
    expect(card("896110")).toMatchObject({ calling_code: "61", country: { iso2: "NF" }, issuer: { name: "Norfolk Telecom" } });
    expect(card("8997201")).toMatchObject({ country: { iso2: "IL" }, issuer: { name: "Partner" } });
    // A territory sharing the rule's code, or one the MCC's table covers, leaves the rule's country.
    expect(card("8959601")).toMatchObject({ country: { iso2: "MQ" }, issuer: { name: "Orange" } });
    expect(card("8926200").country?.iso2).toBe("RE");
    expect(card("8901032").country?.iso2).toBe("US");
  });
});
