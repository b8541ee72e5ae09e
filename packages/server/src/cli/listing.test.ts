import { describe, expect, it } from "vitest";
import { printListing } from "./listing.js";

function printed(isTTY: boolean, rows: string[][]): string {
  let text = "";
  printListing(["PREFIX", "COUNTRY", "NAME"], rows, { isTTY, write: (chunk: string) => (text += chunk) });
  return text;
}

const ROWS = [
  ["8944100", "JE", 'Live, "quoted"\tMVNO'],
  ["89882", "-", "Ünïcode Telecom"],
];

describe("a list command's rows", () => {
  it("are tab-separated lines without a header into a pipe, a tab inside a cell made a space", () => {
    expect(printed(false, ROWS)).toBe('8944100\tJE\tLive, "quoted" MVNO\n89882\t-\tÜnïcode Telecom\n');
    expect(printed(false, [])).toBe("");
  });

  it("are aligned under a header on a terminal, the last column not padded", () => {
    expect(printed(true, ROWS).split("\n")).toEqual([
      "PREFIX   COUNTRY  NAME",
      '8944100  JE       Live, "quoted" MVNO',
      "89882    -        Ünïcode Telecom",
      "",
    ]);
    expect(printed(true, [])).toBe("PREFIX  COUNTRY  NAME\n");
  });
});
