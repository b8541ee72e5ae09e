import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { expect, it } from "vitest";
import { neutraliseFormula } from "@iccid/core";
import { csvText } from "./csv.js";

// csv-stringify leaves a lone \r unquoted; csvCell quotes it (RFC 4180 quotes any line break), which is
// what quoted_match: /\r/ adds to csv-stringify. Otherwise the output is the same.
it("writes what csv-stringify writes with the formula cast, cell for cell", () => {
  const cell = fc
    .array(fc.constantFrom("a", "=", "+", "-", "@", "\t", "\r", "\n", ",", '"', " ", "'", "é", "\uFF1D"), { maxLength: 8 })
    .map((parts) => parts.join(""));
  fc.assert(
    fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 4 }), (records) => {
      const expected = records.length === 0 ? "" : stringify(records, { eof: true, record_delimiter: "unix", cast: { string: neutraliseFormula }, quoted_match: /\r/ });
      expect(csvText(records)).toBe(expected);
    }),
    { numRuns: 3000 },
  );
});
