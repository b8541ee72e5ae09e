import { describe, expect, it } from "vitest";
import { printListing } from "./listing.js";

function printed(isTTY: boolean, rows: string[][], columns?: number): string {
  let text = "";
  printListing(["PREFIX", "COUNTRY", "NAME"], rows, { isTTY, columns, write: (chunk: string) => (text += chunk) });
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

  it("are cut at a narrow terminal's width, ending in …; a pipe keeps every character", () => {
    expect(printed(true, ROWS, 24).split("\n")).toEqual([
      "PREFIX   COUNTRY  NAME",
      "8944100  JE       Live,…",
      "89882    -        Ünïco…",
      "",
    ]);
    expect(printed(false, ROWS, 24)).toBe(printed(false, ROWS));
  });

  it("are aligned on a terminal however many there are (a year's server-wide audit trail)", () => {
    const many = Array.from({ length: 300_000 }, (_, i) => [String(i), "-", "name"]);
    const lines = printed(true, many).split("\n");
    expect(lines).toHaveLength(300_002);
    expect(lines[300_000]).toBe("299999  -        name");
  });
});
