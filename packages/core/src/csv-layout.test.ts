import { describe, expect, it } from "vitest";
import { answersHeader, CsvLayoutError, detectCsvLayout } from "./csv-layout.js";
import { LOOKUP_ROW_COLUMNS } from "./lookup-row.js";

const UK = "89441000000000000018";

describe("detectCsvLayout", () => {
  it("finds the ICCID column by a known header name, whatever its spelling", () => {
    for (const name of ["iccid", "ICCID", "Sim Number", "sim_iccid", "SIM"]) {
      expect(detectCsvLayout(["customer", name], [UK, "x"], undefined)).toMatchObject({ hasHeader: true, iccidIndex: 1 });
    }
  });

  it("of several named columns, takes one that says ICCID over one that says only SIM, and one holding an ICCID first", () => {
    // An inventory's own row id beside the ICCIDs: the ICCID column, wherever it stands.
    expect(detectCsvLayout(["sim_id", "ICCID", "note"], ["1", UK, "x"], undefined).iccidIndex).toBe(1);
    expect(detectCsvLayout(["SIM Number", "iccid"], undefined, undefined).iccidIndex).toBe(1);
    // A name that says only SIM still wins when it is the one holding an ICCID.
    expect(detectCsvLayout(["iccid", "sim"], ["", UK], undefined).iccidIndex).toBe(1);
  });

  it("treats a first row holding an ICCID as data", () => {
    expect(detectCsvLayout(["x", UK], ["y", UK], undefined)).toEqual({ hasHeader: false, columns: ["column_1", "column_2"], iccidIndex: 1 });
    expect(detectCsvLayout(["8944 1000 0000 0000 0018"], undefined, undefined).hasHeader).toBe(false);
  });

  it("takes the only column of an unknown header, or the one whose next value reads as an ICCID", () => {
    expect(detectCsvLayout(["number"], [UK], undefined)).toMatchObject({ hasHeader: true, iccidIndex: 0 });
    expect(detectCsvLayout(["a", "b"], ["x", UK], undefined)).toMatchObject({ hasHeader: true, iccidIndex: 1 });
  });

  it("says why when it cannot tell", () => {
    const error = (() => {
      try {
        detectCsvLayout(["a", "b"], ["x", "y"], undefined);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CsvLayoutError);
    expect(error).toMatchObject({ reason: "undecided", message: 'cannot tell which column holds the ICCIDs (first row: "a", "b")' });
  });

  it("takes a column by exact or loose name, or 1-based number", () => {
    expect(detectCsvLayout(["A", "My Sims"], undefined, "my_sims").iccidIndex).toBe(1);
    expect(detectCsvLayout(["x", UK], undefined, "2")).toMatchObject({ hasHeader: false, iccidIndex: 1 });
    expect(detectCsvLayout(["a", "b"], undefined, "1")).toMatchObject({ hasHeader: true, iccidIndex: 0 });
    expect(() => detectCsvLayout(["a"], undefined, "3")).toThrow(expect.objectContaining({ reason: "column_out_of_range" }));
    expect(() => detectCsvLayout(["a"], undefined, "zz")).toThrow(expect.objectContaining({ reason: "column_not_found" }));
  });

  it("names empty header cells by position", () => {
    expect(detectCsvLayout(["iccid", ""], undefined, undefined).columns).toEqual(["iccid", "column_2"]);
  });
});

describe("answersHeader", () => {
  it("puts the lookup row's columns after the input's, prefixing the names the input already uses", () => {
    const header = answersHeader(["iccid", "customer"]);
    expect(header.slice(0, 3)).toEqual(["iccid", "customer", "lookup_iccid"]);
    expect(header.slice(3)).toEqual(LOOKUP_ROW_COLUMNS.slice(1));
  });

  it("takes names that differ only in case as the same, and prefixes until a name is free", () => {
    expect(answersHeader(["ICCID", "Valid"]).slice(0, 5)).toEqual(["ICCID", "Valid", "lookup_iccid", "lookup_valid", "luhn"]);
    expect(answersHeader(["iccid", "Lookup_ICCID"])[2]).toBe("lookup_lookup_iccid");
  });
});
