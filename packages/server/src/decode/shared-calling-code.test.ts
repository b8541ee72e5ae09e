import { luhnCheckDigit } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { IccidDecoder } from "./decoder.js";

// A calling code several countries share leaves the country open unless the issuer or a national
// numbering prefix names it; the answer says so, so that it is not read as an unknown code's.

const decoder = new IccidDecoder();
const card = (body: string) => {
  const digits = body.padEnd(18, "0");
  const outcome = decoder.decode(digits + luhnCheckDigit(digits));
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
};
const codes = (body: string) => card(body).warnings.map((w) => w.code);

describe("shared_calling_code", () => {
  it("warns where a shared code leaves the country open, naming the code and its countries", () => {
    const kazakhOrRussian = card("8972000");
    expect(kazakhOrRussian.country).toBeNull();
    expect(kazakhOrRussian.warnings).toEqual([
      { code: "shared_calling_code", message: "calling code 7 is shared by RU, KZ and nothing else in the number says which country" },
    ]);
    expect(codes("8910799999")).toEqual(["shared_calling_code"]);
    expect(card("8910799999").calling_code).toBe("1");
  });

  it("does not warn where the issuer or the numbering names the country under a shared code", () => {
    expect(card("8959978").country?.iso2).toBe("BQ");
    expect(codes("8959978")).toEqual([]);
    expect(card("8970177").country?.iso2).toBe("RU");
    expect(codes("8970177")).toEqual([]);
  });

  it("does not warn for a code of one country, nor for an international code (no country to leave open)", () => {
    expect(codes("8949999")).toEqual([]);
    expect(card("8988299999").country).toBeNull();
    expect(codes("8988299999")).toEqual([]);
  });
});
