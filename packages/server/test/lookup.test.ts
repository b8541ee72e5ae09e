import { luhnCheckDigit } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call } from "./http.js";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 10_000 } });
  key = server.owner.apiKey;
});
afterAll(async () => server?.close());

const withCheck = (body: string) => body + luhnCheckDigit(body);
const lookup = (iccid: unknown) => call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid } });
const batch = (iccids: unknown) => call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids } });

describe("POST /api/v1/iccid/lookup", () => {
  it("answers the lookup result of the contract", async () => {
    const r = await lookup("8944 1000 0000 0000 0018");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({
      iccid: "89441000000000000018",
      input: "8944 1000 0000 0000 0018",
      valid: true,
      length: 20,
      checks: { format: true, luhn: "valid" },
      check_digit: "8",
      mii: "89",
      calling_code: "44",
      country: { iso2: "GB", name: "United Kingdom" },
      issuer: { prefix: "894410", name: "Vodafone plc", source: "itu-e118", origin: "itu-e118", confidence: "registered" },
      home_network: null,
      account_number: "0000000000001",
      warnings: [],
    });
    expect(r.body.data_version).toMatch(/^registry\.\d+\./);
  });

  it("reads full-width digits and a quoted number as the number, saying so in warnings", async () => {
    const wide = await lookup("８９４４１０００００００００００００１８");
    expect(wide.status).toBe(200);
    expect(wide.body).toMatchObject({ iccid: "89441000000000000018", valid: true, issuer: { name: "Vodafone plc" } });
    expect(wide.body.warnings.map((w: { code: string }) => w.code)).toEqual(["full_width_digits"]);
    const quoted = await lookup("\u201C8944 1000 0000 0000 0018\u201D");
    expect(quoted.status).toBe(200);
    expect(quoted.body.warnings).toEqual([{ code: "quotes_stripped", message: "the quotes around the number were removed" }]);
    const listed = await batch(["'89441000000000000018'", "89441000000000000018"]);
    expect(listed.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true]);
    expect(listed.body.summary.unique).toBe(1);
  });

  it("answers 200 with valid: false for a wrong check digit", async () => {
    const r = await lookup("89441000000000000019");
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(false);
    expect(r.body.checks.luhn).toBe("invalid");
  });

  it.each([
    ["12AB", "invalid_mii"],
    ["", "empty"],
    ["8944100000000000001X", "invalid_characters"],
    ["894410000", "too_short"],
    ["89441000000000000018000", "too_long"],
  ])("refuses %j with 422 invalid_input pointing at /iccid (%s)", async (iccid, code) => {
    const r = await lookup(iccid);
    expect(r.status).toBe(422);
    expect(r.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(r.body).toMatchObject({ status: 422, code: "invalid_input", errors: [{ pointer: "/iccid", code }] });
    // An error after authentication still says where the rate limit stands.
    expect(r.headers.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
  });

  it.each([
    [{}, "/iccid"],
    [{ iccid: 8944 }, "/iccid"],
    [{ iccid: null }, "/iccid"],
    [{ iccid: "89441000000000000018", extra: 1 }, "/extra"],
  ])("refuses body %j with a pointer to the field", async (body, pointer) => {
    const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("invalid_input");
    expect(r.body.errors[0].pointer).toBe(pointer);
  });
});

describe("POST /api/v1/iccid/batch", () => {
  it("answers every item in input order, with per-item errors and a summary", async () => {
    const good = "89441000000000000018";
    const r = await batch([good, "12AB", "89441000000000000019", "8944 1000 0000 0000 0018", good, "12AB"]);
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: { index: number }) => x.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r.body.results[1]).toEqual({
      index: 1,
      ok: false,
      input: "12AB",
      error: { code: "invalid_mii", message: expect.any(String) },
    });
    expect(r.body.results[3].result.input).toBe("8944 1000 0000 0000 0018");
    expect(r.body.results[4].result).toEqual(r.body.results[0].result);
    expect(r.body.summary).toEqual({ total: 6, ok: 4, failed: 2, valid: 3, invalid: 1, unique: 3 });
  });

  it("takes exactly 1000 items and refuses 1001", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => withCheck(`8944100000${String(i).padStart(8, "0")}`));
    const ok = await batch(items);
    expect(ok.status).toBe(200);
    expect(ok.body.results).toHaveLength(1000);
    expect(ok.body.summary.unique).toBe(1000);
    const over = await batch([...items, items[0]]);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: "invalid_input", errors: [{ pointer: "/iccids", code: "too_big" }] });
  });

  it.each([
    [{ iccids: [] }, "/iccids", "too_small"],
    [{}, "/iccids", "invalid_type"],
    [{ iccids: "89441000000000000018" }, "/iccids", "invalid_type"],
    [{ iccids: [...Array(17).fill("89441000000000000018"), 42] }, "/iccids/17", "invalid_type"],
  ])("refuses structural problems %#", async (body, pointer, code) => {
    const r = await call(server.url, "POST", "/api/v1/iccid/batch", { key, body });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("invalid_input");
    expect(r.body.errors[0]).toMatchObject({ pointer, code });
  });

  it("refuses a body that is not an object", async () => {
    const r = await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: ["89441000000000000018"] });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].pointer).toBe("");
  });
});
