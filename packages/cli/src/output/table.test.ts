import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { palette } from "./colour.js";
import { columnNeeds, fitColumns, renderPairs, renderTable, terminalColumns } from "./table.js";

const lines = (text: string) => text.trimEnd().split("\n").map(stripVTControlCharacters);
const HEAD = ["ICCID", "Valid", "Country", "Issuer", "Notes"];
const ROW = ["89441000000000000018", "✓ valid", "United Kingdom (GB, +44)", "Vodafone plc (894410)", "non_standard_length, padding_stripped"];

describe("tables", () => {
  it("write out the controls a name holds, and keep the palette's colours", () => {
    const evil = "Evil\x1b]0;pwned\x07\x1b[2J\rMVNO\u202e (894410)";
    const paint = palette(true);
    const table = renderTable(HEAD, [[ROW[0]!, paint.green("✓ valid"), ROW[2]!, evil, ""]], paint, 200);
    const pairs = renderPairs([["Issuer", evil]], paint, 80);
    for (const out of [table, pairs]) {
      expect(out).toContain("Evil\\x1B]0;pwned\\x07\\x1B[2J MVNO\\u202E (894410)");
      // Only colour codes reach the terminal raw.
      expect(out.replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
    }
    expect(table).toContain(paint.green("✓ valid"));
  });

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

  it("write a column of notes under its rows when the table does not fit, and beside them when it does", () => {
    const head = ["ICCID", "Valid", "Notes"];
    const rows = [
      ["8944100000000000001", "✗ bad check digit (0 would pass)", "printed without its check digit? then 89441000000000000018"],
      ["89441000000000000018", "✓ valid", ""],
    ];
    const narrow = lines(renderTable(head, rows, palette(false), 40, { beneath: 2 }));
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(40);
    const cells = (line: string) => line.split("│").slice(1, -1).map((cell) => cell.trim());
    expect(cells(narrow[1]!)).toEqual(["ICCID", "Valid"]);
    // Under its own row, whole, labelled with the column's heading; a row without notes gets no line.
    const notes = narrow.filter((line) => cells(line).length === 1).map((line) => cells(line)[0]).join(" ");
    expect(notes).toBe("Notes: printed without its check digit? then 89441000000000000018");
    expect(narrow.join("\n")).not.toContain("…");
    expect(narrow.findIndex((line) => line.includes("Notes:"))).toBeLessThan(narrow.findIndex((line) => line.includes("89441000000000000018 │")));
    // The table widens, up to the terminal, for its longest note.
    const roomy = lines(renderTable(head, rows, palette(false), 70, { beneath: 2 }));
    expect(roomy.map((line) => line.length)).toEqual(roomy.map(() => 70));
    expect(roomy.map(cells)).toContainEqual(["Notes: printed without its check digit? then 89441000000000000018"]);
    // Where the whole table fits, it stays a column; where it does not, an empty one takes no room.
    expect(cells(lines(renderTable(head, rows, palette(false), 120, { beneath: 2 }))[1]!)).toEqual(head);
    const noNotes = lines(renderTable(head, [rows[0]!.slice(0, 2)], palette(false), 40, { beneath: 2 }));
    expect(cells(noNotes[1]!)).toEqual(["ICCID", "Valid"]);
    expect(noNotes.join("\n")).not.toContain("Notes");
  });

  it("take the width from the terminal, else $COLUMNS, else none", () => {
    expect(terminalColumns({ columns: 100 }, { COLUMNS: "80" })).toBe(100);
    expect(terminalColumns({}, { COLUMNS: "80" })).toBe(80);
    expect(terminalColumns({}, { COLUMNS: "wide" })).toBeUndefined();
    expect(terminalColumns({}, {})).toBeUndefined();
  });

  it("leave out the least important columns whole before cutting a cell, and say which", () => {
    const head = ["ID", "Name", "Key", "Created", "Last used", "State"];
    const row = ["key_3kq9zv7m2p4x8w1n", "from-ci", "iccid_FC9V…7QXZ", "2026-11-26 05:31", "2026-11-26 05:40", "active"];
    const table = lines(renderTable(head, [row], palette(false), 80, { drop: [3, 4, 2, 5], wrap: [1] }));
    for (const line of table) expect(line.length).toBeLessThanOrEqual(80);
    const cells = (line: string) => line.split("│").slice(1, -1).map((cell) => cell.trim());
    expect(cells(table[1]!)).toEqual(["ID", "Name", "Key", "Last used", "State"]);
    expect(cells(table[3]!)).toEqual(["key_3kq9zv7m2p4x8w1n", "from-ci", "iccid_FC9V…7QXZ", "2026-11-26 05:40", "active"]);
    expect(table.at(-1)).toBe("(Created left out to fit the terminal; --json shows every field)");
    // Narrower still: the next least important goes too, whole.
    const narrow = lines(renderTable(head, [row], palette(false), 66, { drop: [3, 4, 2, 5], wrap: [1] }));
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(66);
    expect(cells(narrow[1]!)).toEqual(["ID", "Name", "Key", "State"]);
    // The note wraps to the terminal too.
    expect(narrow.slice(-2)).toEqual(["(Created, Last used left out to fit the terminal; --json shows", "every field)"]);
    // Wide enough: nothing is left out, and nothing is said.
    expect(lines(renderTable(head, [row], palette(false), 120, { drop: [3, 4, 2, 5] }))[1]).toContain("Last used");
  });
});
