import { describe, expect, it } from "vitest";
import { csvRecords, RegistryDataError } from "./csv.js";

// The registry's data files are read by core's CSV reader, the one the CLI reads its input with: any
// line end, a byte order mark, quoted cells with commas, quotes and line breaks, blank lines skipped, and
// each row told the line it starts on, which every data error names.

const COLUMNS = ["prefix", "name", "note"] as const;

describe("registry CSV files", () => {
  it("read quoted cells across lines, any line end and a BOM, each row with the line it starts on", () => {
    for (const end of ["\n", "\r\n"]) {
      const text = ["\uFEFFprefix,name,note", "8944, Vodafone UK ,", "", '8931,"KPN, Mobile","a note', 'on two lines"', "   ", '8933,"Orange ""FR""",x'].join(end) + end;
      expect(csvRecords({ name: "curated.csv", text }, COLUMNS), JSON.stringify(end)).toEqual([
        { line: 2, prefix: "8944", name: "Vodafone UK", note: "" },
        { line: 4, prefix: "8931", name: "KPN, Mobile", note: `a note${end}on two lines` },
        { line: 7, prefix: "8933", name: 'Orange "FR"', note: "x" },
      ]);
    }
  });

  it("name the file and the line of a quoted cell left open", () => {
    const text = 'prefix,name,note\r\n8944,Vodafone,\r\n8931,"KPN,\r\n8933,Orange,\r\n';
    expect(() => csvRecords({ name: "curated.csv", text }, COLUMNS)).toThrow(new RegistryDataError("curated.csv line 3: a quoted field is not closed"));
  });
});
