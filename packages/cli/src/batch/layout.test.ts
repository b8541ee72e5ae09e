import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.js";
import { detectLayout } from "./layout.js";

const UK = "89441000000000000018";

describe("detectLayout", () => {
  it("finds the ICCID column by a known header name, whatever its spelling", () => {
    for (const name of ["iccid", "ICCID", "Sim Number", "sim_iccid", "SIM"]) {
      expect(detectLayout(["customer", name], [UK, "x"], undefined)).toMatchObject({ hasHeader: true, iccidIndex: 1 });
    }
  });

  it("treats a first row holding an ICCID as data", () => {
    expect(detectLayout(["x", UK], ["y", UK], undefined)).toEqual({ hasHeader: false, columns: ["column_1", "column_2"], iccidIndex: 1 });
    expect(detectLayout(["8944 1000 0000 0000 0018"], undefined, undefined).hasHeader).toBe(false);
  });

  it("takes the only column of an unknown header, or the one whose next value reads as an ICCID", () => {
    expect(detectLayout(["number"], [UK], undefined)).toMatchObject({ hasHeader: true, iccidIndex: 0 });
    expect(detectLayout(["a", "b"], ["x", UK], undefined)).toMatchObject({ hasHeader: true, iccidIndex: 1 });
  });

  it("asks for --column when it cannot tell", () => {
    expect(() => detectLayout(["a", "b"], ["x", "y"], undefined)).toThrow(UsageError);
  });

  it("--column by exact or loose name, or 1-based number", () => {
    expect(detectLayout(["A", "My Sims"], undefined, "my_sims").iccidIndex).toBe(1);
    expect(detectLayout(["x", UK], undefined, "2")).toMatchObject({ hasHeader: false, iccidIndex: 1 });
    expect(detectLayout(["a", "b"], undefined, "1")).toMatchObject({ hasHeader: true, iccidIndex: 0 });
    expect(() => detectLayout(["a"], undefined, "3")).toThrow(/only 1 column/);
    expect(() => detectLayout(["a"], undefined, "zz")).toThrow(/no such column/);
  });

  it("names empty header cells by position", () => {
    expect(detectLayout(["iccid", ""], undefined, undefined).columns).toEqual(["iccid", "column_2"]);
  });
});
