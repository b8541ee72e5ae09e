import { luhnCheckDigit } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { IccidDecoder } from "../decoder.js";

// An issuer answers the country its registration names, not the main country of the calling code it is
// registered under.

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
});
