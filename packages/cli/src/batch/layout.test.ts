import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.js";
import { detectLayout } from "./layout.js";

// The rule itself is core's (csv-layout.test.ts); here, what the CLI makes of what it cannot decide.

const UK = "89441000000000000018";

describe("detectLayout", () => {
  it("decides as core's rule does", () => {
    expect(detectLayout(["customer", "Sim Number"], [UK, "x"], undefined)).toMatchObject({ hasHeader: true, iccidIndex: 1 });
    expect(detectLayout(["x", UK], undefined, "2")).toMatchObject({ hasHeader: false, iccidIndex: 1 });
  });

  it("asks for --column when it cannot tell", () => {
    expect(() => detectLayout(["a", "b"], ["x", "y"], undefined)).toThrow(UsageError);
    expect(() => detectLayout(["a", "b"], ["x", "y"], undefined)).toThrow(/; pass --column NAME or --column N$/);
  });

  it("names --column and its value when the column asked for is not there", () => {
    expect(() => detectLayout(["a"], undefined, "3")).toThrow("--column 3: the file has only 1 column(s)");
    expect(() => detectLayout(["a"], undefined, "zz")).toThrow('--column "zz": no such column in the header ("a"); a 1-based number works too');
  });
});
