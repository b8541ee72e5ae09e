import { eidCheckDigits } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestAccount, type TestServer } from "../test-support/index.js";
import { call, sessionCookie } from "./http.js";

// The EID endpoints through a real server: the grammar's verdicts, what the numbering tells, and that an
// EID is metered, scoped and limited as an ICCID is.

const GERMAN = "89049032123451234512345678901235";
const NORTH_AMERICAN = "89001039240180124400000000000157";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 10_000 } });
});
afterAll(async () => server?.close());

const lookup = (key: string, body: unknown) => call(server.url, "POST", "/api/v1/eid/lookup", { key, body });
const batch = (key: string, body: unknown) => call(server.url, "POST", "/api/v1/eid/batch", { key, body });
const lookups = async (key: string): Promise<number> => (await call(server.url, "GET", "/api/v1/usage", { key })).body.totals.lookups;

/** Every EID one digit away from `eid`. */
function oneDigitOff(eid: string): string[] {
  const changed: string[] = [];
  for (let i = 0; i < eid.length; i++) {
    for (const digit of "0123456789") if (digit !== eid[i]) changed.push(eid.slice(0, i) + digit + eid.slice(i + 1));
  }
  return changed;
}

describe("POST /api/v1/eid/lookup", () => {
  it("answers the issue's vectors as valid, with their country and issuer identifier", async () => {
    const key = server.owner.apiKey;
    const german = await lookup(key, { eid: GERMAN });
    expect(german.status).toBe(200);
    expect(german.headers["content-type"]).toMatch(/^application\/json/);
    expect(german.body).toEqual({
      eid: GERMAN,
      input: GERMAN,
      valid: true,
      checks: { format: true, mod97: "valid" },
      check_digits: "35",
      layout: "sgp02",
      calling_code: "49",
      country: { iso2: "DE", name: "Germany" },
      manufacturer: { id: "89049032", name: null },
      warnings: [],
    });
    // Calling code 1 is shared by the United States, Canada and the Caribbean: no country from it alone.
    expect((await lookup(key, { eid: NORTH_AMERICAN })).body).toMatchObject({
      valid: true,
      check_digits: "57",
      calling_code: "1",
      country: null,
      manufacturer: { id: "89001039", name: null },
    });
  });

  it("answers valid: false with the check digits that would pass for a changed digit", async () => {
    const key = server.owner.apiKey;
    const typo = `${GERMAN.slice(0, 10)}9${GERMAN.slice(11)}`;
    const r = await lookup(key, { eid: typo });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ eid: typo, valid: false, checks: { format: true, mod97: "invalid" } });
    const fixed = typo.slice(0, 30) + r.body.checks.expected_check_digits;
    expect(r.body.checks.expected_check_digits).toBe(eidCheckDigits(typo.slice(0, 30)));
    expect((await lookup(key, { eid: fixed })).body).toMatchObject({ valid: true, checks: { mod97: "valid" } });
  });

  it("reads EIDs as people and modems write them, saying so", async () => {
    const key = server.owner.apiKey;
    for (const written of ["8904 9032 1234 5123 4512 3456 7890 1235", "89049032-12345123-45123456-78901235"]) {
      expect((await lookup(key, { eid: written })).body, written).toMatchObject({ eid: GERMAN, input: written, valid: true, warnings: [] });
    }
    for (const line of [`+CEID: ${GERMAN}`, `%XEID: "${GERMAN}"`, `EID: ${GERMAN}`, `+CEID: ${GERMAN}\r\nOK`]) {
      const r = await lookup(key, { eid: line });
      expect(r.body, line).toMatchObject({ eid: GERMAN, valid: true, warnings: [{ code: "modem_response" }] });
    }
  });

  it("answers an SGP.29 EID, which need not start with 89, without the SGP.02 parts", async () => {
    const first30 = "350123456789012345678901234567";
    const eid = first30 + eidCheckDigits(first30);
    expect((await lookup(server.owner.apiKey, { eid })).body).toMatchObject({
      eid,
      valid: true,
      layout: "sgp29",
      calling_code: null,
      country: null,
      manufacturer: null,
    });
  });

  it("refuses what is not an EID with a 422 naming the field, and charges nothing", async () => {
    const account = await server.createAccount();
    const before = await lookups(account.apiKey);
    const cases: Array<[unknown, string, string]> = [
      [{ eid: GERMAN.slice(1) }, "/eid", "too_short"],
      [{ eid: `${GERMAN}0` }, "/eid", "too_long"],
      [{ eid: "8904903212345123451234567890123X" }, "/eid", "invalid_characters"],
      [{ eid: "" }, "/eid", "empty"],
      [{ eid: 89049032 }, "/eid", "invalid_type"],
      [{}, "/eid", "invalid_type"],
      [{ eid: GERMAN, iccid: "8944" }, "/iccid", "unrecognized_keys"],
    ];
    for (const [body, pointer, code] of cases) {
      const r = await lookup(account.apiKey, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(r.body.code).toBe("invalid_input");
      expect(r.body.errors[0], JSON.stringify(body)).toMatchObject({ pointer, code });
    }
    expect(await lookups(account.apiKey)).toBe(before);
  });
});

describe("POST /api/v1/eid/batch", () => {
  it("finds every one-digit change of both vectors, in input order", async () => {
    const eids = [...oneDigitOff(GERMAN), ...oneDigitOff(NORTH_AMERICAN)];
    expect(eids.length).toBe(576);
    const r = await batch(server.owner.apiKey, { eids });
    expect(r.status).toBe(200);
    expect(r.body.results.map((item: { index: number }) => item.index)).toEqual(eids.map((_, i) => i));
    for (const item of r.body.results) expect(item, eids[item.index]).toMatchObject({ ok: true, result: { eid: eids[item.index], valid: false } });
    expect(r.body.summary).toEqual({ total: 576, ok: 576, failed: 0, valid: 0, invalid: 576, unique: 576 });
  });

  it("reports a bad item in place, and charges each distinct EID read once, however written", async () => {
    const account = await server.createAccount();
    const r = await batch(account.apiKey, {
      eids: [GERMAN, `EID: ${GERMAN}`, NORTH_AMERICAN, "12AB", "12AB", `${GERMAN.slice(0, 31)}0`],
    });
    expect(r.status).toBe(200);
    expect(r.body.results[3]).toEqual({ index: 3, ok: false, input: "12AB", error: { code: "invalid_characters", message: expect.any(String) } });
    expect(r.body.results[1]).toMatchObject({ index: 1, ok: true, result: { eid: GERMAN, warnings: [{ code: "modem_response" }] } });
    expect(r.body.summary).toEqual({ total: 6, ok: 4, failed: 2, valid: 3, invalid: 1, unique: 4 });
    // GERMAN (twice), NORTH_AMERICAN and the one with a wrong check digit: three distinct EIDs read.
    expect(await lookups(account.apiKey)).toBe(3);
  });

  it("answers JSON whatever the Accept asks for: the EID batch has no CSV form", async () => {
    const r = await call(server.url, "POST", "/api/v1/eid/batch", { key: server.owner.apiKey, body: { eids: [GERMAN] }, headers: { accept: "text/csv" } });
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers.vary).toBeUndefined();
    expect(r.body.results[0]).toMatchObject({ index: 0, ok: true, result: { eid: GERMAN } });
  });

  it("refuses a batch only for its structure, pointing at the field", async () => {
    const key = server.owner.apiKey;
    const cases: Array<[unknown, string]> = [
      [{ eids: [] }, "/eids"],
      [{ eids: Array.from({ length: 1001 }, () => GERMAN) }, "/eids"],
      [{ eids: [GERMAN, 5] }, "/eids/1"],
      [{ eids: GERMAN }, "/eids"],
      [{}, "/eids"],
    ];
    for (const [body, pointer] of cases) {
      const r = await batch(key, body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(r.body.errors[0].pointer).toBe(pointer);
    }
  });
});

describe("the EID endpoints are metered and guarded as the ICCID ones", () => {
  let tight: TestAccount;
  beforeAll(async () => {
    await server.setPlan("eid-tight", { rate_limit: 1000, window_seconds: 60, monthly_lookups: 3 });
    tight = await server.createAccount({ plan: "eid-tight" });
  });

  it("refuses a batch past the quota whole (429 quota_exceeded), and charges nothing for it", async () => {
    const first30 = ["111111111111111111111111111111", "222222222222222222222222222222", "333333333333333333333333333333", "444444444444444444444444444444"];
    const four = first30.map((digits) => digits + eidCheckDigits(digits));
    const over = await batch(tight.apiKey, { eids: four });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("quota_exceeded");
    expect(await lookups(tight.apiKey)).toBe(0);
    expect((await batch(tight.apiKey, { eids: four.slice(0, 2) })).status).toBe(200);
    expect((await lookup(tight.apiKey, { eid: GERMAN })).status).toBe(200);
    expect(await lookups(tight.apiKey)).toBe(3);
    const spent = await lookup(tight.apiKey, { eid: NORTH_AMERICAN });
    expect(spent.status).toBe(429);
    expect(spent.body.code).toBe("quota_exceeded");
  });

  it("needs the lookup scope and a key, and carries the RateLimit fields", async () => {
    const cookie = sessionCookie(
      await call(server.url, "POST", "/api/v1/session", { body: { email: server.owner.email, password: server.owner.password } }),
    );
    const readOnly = (await call(server.url, "POST", "/api/v1/keys", { cookie, body: { name: "read", scopes: ["usage:read"] } })).body.key;
    for (const refused of [await lookup(readOnly, { eid: GERMAN }), await batch(readOnly, { eids: [GERMAN] })]) {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: "insufficient_scope", required_scope: "lookup" });
    }
    const anonymous = await call(server.url, "POST", "/api/v1/eid/lookup", { body: { eid: GERMAN } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("missing_api_key");
    const answered = await lookup(server.owner.apiKey, { eid: GERMAN });
    expect(answered.headers["ratelimit"]).toMatch(/^"default";r=\d+;t=\d+$/);
  });
});
