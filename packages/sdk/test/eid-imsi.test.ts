import { describe, expect, expectTypeOf, it } from "vitest";
import { UnprocessableEntityError, type EidResult, type ImsiAnswer } from "../src/index.js";
import { expectProblem, failure, useRealServer } from "./real-server.js";

// The EID resource and IMSIs beside ICCIDs, against the real server: each new call as a user makes it.

const real = useRealServer();
const client = real.client;
const EID = "89049032123451234512345678901235";
const ICCID = "89441000000000000018";

describe("eid", () => {
  it("looks up one EID as written, typed", async () => {
    const result = await client().eid.lookup(`+CEID: ${EID}`);
    expectTypeOf(result).toEqualTypeOf<EidResult>();
    expect(result).toEqual({
      eid: EID,
      input: `+CEID: ${EID}`,
      valid: true,
      checks: { format: true, mod97: "valid" },
      check_digits: "35",
      layout: "sgp02",
      calling_code: "49",
      country: { iso2: "DE", name: "Germany" },
      manufacturer: { id: "89049032", name: null },
      warnings: [{ code: "modem_response", message: expect.any(String) }],
    });
  });

  it("answers wrong check digits with valid: false and the digits that would pass", async () => {
    const result = await client().eid.lookup(`${EID.slice(0, 30)}00`);
    expect(result).toMatchObject({ valid: false, checks: { mod97: "invalid", expected_check_digits: "35" } });
  });

  it("maps a grammar failure to UnprocessableEntityError pointing at /eid", async () => {
    const error = (await failure(client().eid.lookup(EID.slice(2)))) as UnprocessableEntityError;
    expectProblem(error, UnprocessableEntityError, 422, "invalid_input");
    expect(error.errors[0]).toMatchObject({ pointer: "/eid", code: "too_short" });
  });

  it("batches EIDs, reporting bad items in place", async () => {
    const answer = await client().eid.batch([EID, "12AB", `${EID.slice(0, 30)}00`]);
    expect(answer.results.map((r) => [r.index, r.ok])).toEqual([
      [0, true],
      [1, false],
      [2, true],
    ]);
    expect(answer.results[1]).toMatchObject({ ok: false, input: "12AB", error: { code: "invalid_characters" } });
    expect(answer.summary).toEqual({ total: 3, ok: 2, failed: 1, valid: 1, invalid: 1, unique: 3 });
  });
});

describe("iccid with an IMSI", () => {
  it("sends { iccid, imsi } and answers the IMSI's parts, typed", async () => {
    const result = await client().iccid.lookup({ iccid: ICCID, imsi: "262011234567890" });
    expectTypeOf(result.imsi).toEqualTypeOf<ImsiAnswer | undefined>();
    expect(result.imsi).toEqual({
      imsi: "262011234567890",
      mcc: "262",
      mnc: "01",
      country: { iso2: "DE", name: "Germany" },
      network: { name: "Telekom", operator: "Telekom Deutschland GmbH" },
      mvno: null,
    });
    expect(result.warnings.map((w) => w.code)).toEqual(["imsi_country_mismatch"]);
  });

  it("maps a bad IMSI to a 422 pointing at /imsi", async () => {
    const error = (await failure(client().iccid.lookup({ iccid: ICCID, imsi: "123" }))) as UnprocessableEntityError;
    expectProblem(error, UnprocessableEntityError, 422, "invalid_input");
    expect(error.errors[0]).toMatchObject({ pointer: "/imsi", code: "too_short" });
  });

  it("batches strings and { iccid, imsi } items, a bad IMSI failing its own item with its field", async () => {
    const answer = await client().iccid.batch([ICCID, { iccid: ICCID, imsi: "262075201234567" }, { iccid: ICCID, imsi: "111011234567890" }]);
    expect(answer.results[1]).toMatchObject({ ok: true, result: { imsi: { mvno: { name: "Fonic Prepaid" } } } });
    expect(answer.results[2]).toMatchObject({
      ok: false,
      input: ICCID,
      imsi: "111011234567890",
      error: { code: "unknown_mcc", field: "imsi" },
    });
  });
});
