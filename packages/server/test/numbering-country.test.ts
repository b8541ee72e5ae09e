import { luhnCheckDigit } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call } from "./http.js";

// The country model through the real server (SQLite, or PostgreSQL in the server-postgres project): the
// country is the numbering's; international codes name none and put the issuer's on issuer.country;
// Russia's 89 7 01 numbering; 89 + a US MCC weighed against the Dutch reading of the same digits.

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 10_000 } });
  key = server.owner.apiKey;
});
afterAll(async () => server?.close());

const withCheck = (body: string) => body + luhnCheckDigit(body);
const lookup = async (iccid: string) => {
  const answer = await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid } });
  expect(answer.status).toBe(200);
  return answer.body;
};

describe("the country a lookup answers", () => {
  it("is none under the international codes, with the issuer's own country on the issuer", async () => {
    const onece = await lookup("89882806660004909182");
    expect(onece).toMatchObject({
      calling_code: "882",
      country: null,
      issuer: { prefix: "8988280", name: "1NCE", country: { iso2: "DE", name: "Germany" } },
    });
    for (const body of ["898830712345678901", "898709912345678901", "898816123456789012", "898880012345678901"]) {
      expect((await lookup(withCheck(body))).country, body).toBeNull();
    }
    expect((await lookup("89441000000000000018")).issuer.country).toEqual({ iso2: "GB", name: "United Kingdom" });
  });

  it("is Russia for 89 7 01 numbers, their regional operators named and inferred, and unknown elsewhere under 7", async () => {
    const named = {
      "8970103": "Rostelecom",
      "8970105": "Yeniseytelecom",
      "8970107": "SMARTS",
      "8970112": "Baykalwestcom",
      "8970113": "MTS",
      "8970135": "Motiv",
    };
    for (const [prefix, name] of Object.entries(named)) {
      const r = await lookup(withCheck(`${prefix}12345678901`));
      expect(r.country, prefix).toEqual({ iso2: "RU", name: "Russia" });
      expect(r.issuer, prefix).toMatchObject({ prefix, name, confidence: "inferred", country: { iso2: "RU" } });
    }
    const unlisted = await lookup(withCheck("897017712345678901"));
    expect(unlisted).toMatchObject({ calling_code: "7", country: { iso2: "RU" }, issuer: null });
    const other = await lookup(withCheck("897300012345678901"));
    expect(other).toMatchObject({ calling_code: "7", country: null, issuer: null });
    expect((await lookup(withCheck("899970112345678901"))).country.iso2).toBe("KZ");
  });

  it("weighs 89 + a US MCC and MNC against the Dutch reading and says when both stand", async () => {
    const att = await lookup(withCheck("893104101234567890"));
    expect(att).toMatchObject({ calling_code: "1", country: { iso2: "US" }, issuer: { name: "AT&T" }, home_network: { mcc: "310", mnc: "410" }, warnings: [] });

    const blyk = await lookup(withCheck("893103801234567890"));
    expect(blyk.country.iso2).toBe("US");
    expect(blyk.warnings).toEqual([
      {
        code: "ambiguous_numbering",
        message: expect.stringMatching(/United States \(AT&T\).*Netherlands \(Blyk N\.V\.\)/),
        candidates: [
          {
            country: { iso2: "US", name: "United States" },
            issuer: expect.objectContaining({ name: "AT&T", origin: "curated", confidence: "inferred" }),
            home_network: { mcc: "310", mnc: "380" },
          },
          {
            country: { iso2: "NL", name: "Netherlands" },
            issuer: expect.objectContaining({ prefix: "893103", name: "Blyk N.V.", confidence: "registered" }),
            home_network: null,
          },
        ],
      },
    ]);

    const dutch = await lookup(withCheck("893102601234567890"));
    expect(dutch).toMatchObject({ calling_code: "31", country: { iso2: "NL" }, issuer: { prefix: "893102" } });
    expect(dutch.warnings[0].candidates.map((c: { country: { iso2: string } }) => c.country.iso2)).toEqual(["NL", "US"]);

    const kpn = await lookup("8931080019073497795");
    expect(kpn).toMatchObject({ country: { iso2: "NL" }, issuer: { prefix: "893108" }, warnings: [] });
  });

  it("puts the issuer's country in the batch CSV's last column", async () => {
    const answer = await call(server.url, "POST", "/api/v1/iccid/batch", {
      key,
      body: { iccids: ["89882806660004909182", "89441000000000000018"] },
      headers: { accept: "text/csv" },
    });
    expect(answer.status).toBe(200);
    const [header, onece, uk] = answer.text.trimEnd().split(/\r?\n/).map((line) => line.split(","));
    expect(header!.at(-1)).toBe("issuer_country_iso2");
    expect(onece![header!.indexOf("country_iso2")]).toBe("");
    expect(onece!.at(-1)).toBe("DE");
    expect(uk!.at(-1)).toBe("GB");
  });
});
