import type { EidResult } from "@iccid/core/types";
import { describe, expect, it } from "vitest";
import { palette } from "./colour.js";
import { renderEids, type EidOutcome } from "./eid-view.js";

const EID = "89049032123451234512345678901235";
const result: EidResult = {
  eid: EID,
  input: EID,
  valid: true,
  checks: { format: true, mod97: "valid" },
  check_digits: "35",
  layout: "sgp02",
  calling_code: "49",
  country: { iso2: "DE", name: "Germany" },
  manufacturer: { id: "89049032", name: null },
  warnings: [{ code: "modem_response", message: "read from a modem's answer line" }],
};
const outcomes: EidOutcome[] = [
  { input: `EID: ${EID}`, ok: true, result },
  { input: "1234", ok: false, error: { code: "too_short", message: "the EID has 4 digits; an EID has 32" } },
];

describe("EID rendering", () => {
  it("csv: a header and one row per EID, each of the header's length, the error under error_code and error", () => {
    const rows = renderEids(outcomes, "csv", palette(false)).trimEnd().split("\n").map((line) => line.split(","));
    expect(rows[0]).toEqual(["input", "eid", "valid", "mod97", "expected_check_digits", "layout", "calling_code", "country_iso2", "country", "manufacturer_id", "manufacturer", "warnings", "error_code", "error"]);
    expect(rows[1]).toEqual([`EID: ${EID}`, EID, "true", "valid", "", "sgp02", "49", "DE", "Germany", "89049032", "", "modem_response", "", ""]);
    expect(rows[2]).toEqual(["1234", "", "", "", "", "", "", "", "", "", "", "", "too_short", "the EID has 4 digits; an EID has 32"]);
  });

  it("tsv: the rows without a header, tab between cells, a comma kept as it is (csv would quote it)", () => {
    const withComma: EidOutcome = { input: "12,34", ok: false, error: { code: "invalid_characters", message: "the EID has \",\", not a digit" } };
    expect(renderEids([...outcomes, withComma], "tsv", palette(false))).toBe(
      [
        `EID: ${EID}\t${EID}\ttrue\tvalid\t\tsgp02\t49\tDE\tGermany\t89049032\t\tmodem_response\t\t\n`,
        "1234\t\t\t\t\t\t\t\t\t\t\t\ttoo_short\tthe EID has 4 digits; an EID has 32\n",
        '12,34\t\t\t\t\t\t\t\t\t\t\t\tinvalid_characters\tthe EID has ",", not a digit\n',
      ].join(""),
    );
  });
});
