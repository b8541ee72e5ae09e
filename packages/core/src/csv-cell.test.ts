import { describe, expect, it } from "vitest";
import { csvCell, csvLine, neutraliseFormula } from "./csv-cell.js";

describe("a CSV cell", () => {
  it("neutralises cells a spreadsheet would run as a formula", () => {
    for (const cell of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(neutraliseFormula(cell)).toBe(`'${cell}`);
    for (const cell of ["89441000000000000018", "Acme", "", "a=b"]) expect(neutraliseFormula(cell)).toBe(cell);
  });

  it("quotes per RFC 4180, after neutralising, and ends every record with a line feed", () => {
    expect(csvLine(["a,b", 'say "hi"', "two\nlines", "=x"])).toBe('"a,b","say ""hi""","two\nlines",\'=x\n');
    expect(csvCell('=1,"2"')).toBe(`"'=1,""2"""`);
    expect(csvCell("\r")).toBe(`"'\r"`);
    expect(csvLine([])).toBe("\n");
  });
});
