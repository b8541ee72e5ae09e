import { describe, expect, it } from "vitest";
import { csvText, neutraliseFormula } from "./csv.js";

describe("CSV output", () => {
  it("neutralises cells a spreadsheet would run as a formula", () => {
    for (const cell of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(neutraliseFormula(cell)).toBe(`'${cell}`);
    for (const cell of ["89441000000000000018", "Acme", "", "a=b"]) expect(neutraliseFormula(cell)).toBe(cell);
  });

  it("quotes per RFC 4180 and ends every record with a line feed", () => {
    expect(csvText([["a,b", 'say "hi"', "two\nlines", "=x"]])).toBe('"a,b","say ""hi""","two\nlines",\'=x\n');
    expect(csvText([])).toBe("");
  });
});
