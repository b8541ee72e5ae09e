import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { palette } from "./colour.js";
import { columnNeeds, fitColumns, renderTable, terminalColumns } from "./table.js";

const lines = (text: string) => text.trimEnd().split("\n").map(stripVTControlCharacters);
const HEAD = ["ICCID", "Valid", "Country", "Issuer", "Notes"];
const ROW = ["89441000000000000018", "✓ valid", "United Kingdom (GB, +44)", "Vodafone plc (894410)", "non_standard_length, padding_stripped"];

describe("tables", () => {
  it("keep their natural widths when they fit", () => {
    expect(fitColumns([20, 7, 24].map((n) => ({ natural: n, word: n })), 200)).toBeUndefined();
    expect(lines(renderTable(HEAD, [ROW], palette(false), 200))[3]).toContain("non_standard_length, padding_stripped");
  });

  it("fit 80 columns by wrapping the widest columns first, never cutting a word while wrapping will do", () => {
    const needs = [HEAD, ...[ROW]].reduce<string[][]>((cols, row) => row.map((cell, i) => [...(cols[i] ?? []), cell]), []).map(columnNeeds);
    expect(needs[4]).toEqual({ natural: 37, word: 20 }); // "non_standard_length,"
    const widths = fitColumns(needs, 80)!;
    expect(widths.reduce((a, b) => a + b, widths.length + 1)).toBe(80);
    expect(widths[0]).toBe(22); // the ICCID, untouched
    expect(widths[1]).toBe(9); // short columns keep their width while wider ones can give
    for (let i = 0; i < widths.length; i++) expect(widths[i]).toBeGreaterThanOrEqual(needs[i]!.word + 2);

    const table = lines(renderTable(HEAD, [ROW], palette(true), 80));
    for (const line of table) expect(line.length).toBeLessThanOrEqual(80);
    expect(table.join("\n")).toContain("89441000000000000018");
    expect(table.join("\n")).toContain("padding_stripped");
  });

  it("cut cells when wrapping is not enough, and the first column last of all", () => {
    const needs = [30, 30, 30, 30].map((n) => ({ natural: n, word: n }));
    const widths = fitColumns(needs, 60)!;
    expect(widths[0]).toBe(32);
    expect(widths.reduce((a, b) => a + b, 5)).toBe(60);
    expect(fitColumns(needs, 10)).toEqual([5, 5, 5, 5]);
  });

  it("take the width from the terminal, else $COLUMNS, else none", () => {
    expect(terminalColumns({ columns: 100 }, { COLUMNS: "80" })).toBe(100);
    expect(terminalColumns({}, { COLUMNS: "80" })).toBe(80);
    expect(terminalColumns({}, { COLUMNS: "wide" })).toBeUndefined();
    expect(terminalColumns({}, {})).toBeUndefined();
  });
});
