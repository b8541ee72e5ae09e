import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call } from "./http.js";

// IMSIs sent beside ICCIDs, through a real server: the MCC/MNC split from the network list, the network,
// the MVNO range, the country warning, per-item errors naming the field, and what is charged.

const VODAFONE_UK = "89441000000000000018";
const VODAFONE_UK_IMSI = "234150123456789";
const TELEKOM_DE_IMSI = "262011234567890";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 10_000 } });
});
afterAll(async () => server?.close());

const lookup = (key: string, body: unknown) => call(server.url, "POST", "/api/v1/iccid/lookup", { key, body });
const batch = (key: string, iccids: unknown) => call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids } });
const lookups = async (key: string): Promise<number> => (await call(server.url, "GET", "/api/v1/usage", { key })).body.totals.lookups;

describe("POST /api/v1/iccid/lookup with an IMSI", () => {
  it("answers the IMSI's MCC, MNC, country and network beside the ICCID's answer", async () => {
    const r = await lookup(server.owner.apiKey, { iccid: VODAFONE_UK, imsi: "234 15 0123456789" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ iccid: VODAFONE_UK, valid: true, country: { iso2: "GB" }, warnings: [] });
    expect(r.body.imsi).toEqual({
      imsi: VODAFONE_UK_IMSI,
      mcc: "234",
      mnc: "15",
      country: { iso2: "GB", name: "United Kingdom" },
      network: { name: "Vodafone UK", operator: "Vodafone" },
      mvno: null,
    });
    // Without an IMSI the answer has no imsi member at all.
    expect((await lookup(server.owner.apiKey, { iccid: VODAFONE_UK })).body).not.toHaveProperty("imsi");
  });

  it("splits a three-digit MNC where the network list numbers the MCC so", async () => {
    const r = await lookup(server.owner.apiKey, { iccid: VODAFONE_UK, imsi: "310260123456789" });
    expect(r.body.imsi).toMatchObject({ mcc: "310", mnc: "260", country: { iso2: "US" }, network: { name: "T-Mobile" } });
  });

  it("warns when the IMSI's country is not the ICCID's: a multi-IMSI or roaming SIM", async () => {
    const r = await lookup(server.owner.apiKey, { iccid: VODAFONE_UK, imsi: TELEKOM_DE_IMSI });
    expect(r.status).toBe(200);
    expect(r.body.imsi).toMatchObject({ mcc: "262", mnc: "01", country: { iso2: "DE" }, network: { name: "Telekom" } });
    expect(r.body.warnings).toEqual([
      { code: "imsi_country_mismatch", message: "the IMSI's country (DE) is not the ICCID's (GB): a multi-IMSI or roaming SIM" },
    ]);
  });

  it("names the MVNO whose IMSI range holds the IMSI, where the range list has one", async () => {
    const fonic = await lookup(server.owner.apiKey, { iccid: VODAFONE_UK, imsi: "262075201234567" });
    expect(fonic.body.imsi).toMatchObject({ mcc: "262", mnc: "07", network: { name: "O2" }, mvno: { name: "Fonic Prepaid", imsi_prefix: "26207520" } });
    const host = await lookup(server.owner.apiKey, { iccid: VODAFONE_UK, imsi: "262079991234567" });
    expect(host.body.imsi).toMatchObject({ mnc: "07", network: { name: "O2" }, mvno: null });
  });

  it("refuses an IMSI of the wrong length or an unknown MCC with a 422 naming /imsi, and charges nothing", async () => {
    const account = await server.createAccount();
    const cases: Array<[string, string]> = [
      ["2341501234567", "too_short"],
      ["2341501234567890", "too_long"],
      ["23415012345678X", "invalid_characters"],
      ["", "empty"],
      ["000150123456789", "unknown_mcc"],
    ];
    for (const [imsi, code] of cases) {
      const r = await lookup(account.apiKey, { iccid: VODAFONE_UK, imsi });
      expect(r.status, imsi).toBe(422);
      expect(r.body.code).toBe("invalid_input");
      expect(r.body.errors, imsi).toEqual([{ pointer: "/imsi", code, detail: expect.stringContaining("IMSI") }]);
    }
    const both = await lookup(account.apiKey, { iccid: "12AB", imsi: "1" });
    expect(both.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/iccid", "/imsi"]);
    expect((await lookup(account.apiKey, { iccid: VODAFONE_UK, imsi: 234150123456789 })).body.errors[0]).toMatchObject({ pointer: "/imsi", code: "invalid_type" });
    expect(await lookups(account.apiKey)).toBe(0);
  });
});

describe("POST /api/v1/iccid/batch with IMSIs", () => {
  it("takes strings and { iccid, imsi } objects side by side, a bad IMSI failing its item only, named by field", async () => {
    const account = await server.createAccount();
    const r = await batch(account.apiKey, [
      VODAFONE_UK,
      { iccid: VODAFONE_UK, imsi: VODAFONE_UK_IMSI },
      { iccid: VODAFONE_UK, imsi: TELEKOM_DE_IMSI },
      { iccid: VODAFONE_UK, imsi: "111150123456789" },
      { iccid: "12AB", imsi: VODAFONE_UK_IMSI },
      { iccid: VODAFONE_UK },
      { iccid: VODAFONE_UK, imsi: VODAFONE_UK_IMSI },
    ]);
    expect(r.status).toBe(200);
    const [plain, gb, de, unknown, badIccid, object, again] = r.body.results;
    expect(plain).toMatchObject({ index: 0, ok: true, result: { iccid: VODAFONE_UK } });
    expect(plain.result).not.toHaveProperty("imsi");
    expect(gb).toMatchObject({ index: 1, ok: true, result: { imsi: { mcc: "234", mnc: "15" }, warnings: [] } });
    expect(de).toMatchObject({ index: 2, ok: true, result: { imsi: { mcc: "262" }, warnings: [{ code: "imsi_country_mismatch" }] } });
    expect(unknown).toEqual({
      index: 3,
      ok: false,
      input: VODAFONE_UK,
      imsi: "111150123456789",
      error: { code: "unknown_mcc", message: "the IMSI's MCC 111 is not in the network list", field: "imsi" },
    });
    expect(badIccid).toMatchObject({ index: 4, ok: false, input: "12AB", imsi: VODAFONE_UK_IMSI, error: { code: "invalid_mii" } });
    expect(badIccid.error).not.toHaveProperty("field");
    expect(object).toMatchObject({ index: 5, ok: true, result: { iccid: VODAFONE_UK } });
    expect(again).toMatchObject({ index: 6, ok: true, result: { imsi: { imsi: VODAFONE_UK_IMSI } } });
    // Charged: the ICCID alone, with the UK IMSI, with the German IMSI: one lookup each, repeats free.
    expect(r.body.summary).toEqual({ total: 7, ok: 5, failed: 2, valid: 5, invalid: 0, unique: 5 });
    expect(await lookups(account.apiKey)).toBe(3);
  });

  it("refuses a malformed item object for its structure, pointing into it", async () => {
    const key = server.owner.apiKey;
    const extra = await batch(key, [VODAFONE_UK, { iccid: VODAFONE_UK, msisdn: "1" }]);
    expect(extra.status).toBe(422);
    expect(extra.body.errors[0]).toMatchObject({ pointer: "/iccids/1/msisdn", code: "unrecognized_keys" });
    const noIccid = await batch(key, [{ imsi: VODAFONE_UK_IMSI }]);
    expect(noIccid.body.errors[0]).toMatchObject({ pointer: "/iccids/0/iccid", code: "invalid_type", detail: "is required" });
  });

  it("writes IMSI items into the CSV form as lookup rows, a failed IMSI as the row's error", async () => {
    const r = await call(server.url, "POST", "/api/v1/iccid/batch", {
      key: server.owner.apiKey,
      headers: { accept: "text/csv" },
      body: { iccids: [{ iccid: VODAFONE_UK, imsi: VODAFONE_UK_IMSI }, { iccid: VODAFONE_UK, imsi: "99915" }] },
    });
    expect(r.status).toBe(200);
    const [, first, second] = r.text.trim().split("\n");
    expect(first).toMatch(/^89441000000000000018,true,/);
    expect(second).toContain("too_short");
  });
});
