import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvRecordReader, readCsv } from "./csv-records.js";
import { CsvSeparatorError, SEPARATORS } from "./csv-separator.js";

// What the CLI read CSV with before, and what CsvRecordReader must agree with.
const OPTIONS = { bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true } as const;

function reference(text: string, delimiter = ",", skipEmptyRecords = false): string[][] | "error" {
  try {
    return parse(text, { ...OPTIONS, delimiter, skip_records_with_empty_values: skipEmptyRecords }) as string[][];
  } catch {
    return "error";
  }
}

/** Reads `text` cut at the given places, as a file arrives in blocks. */
function read(text: string, cuts: number[] = [], separator?: string, skipEmptyRecords = false): string[][] | "error" {
  const reader = new CsvRecordReader(separator, { skipEmptyRecords });
  const out: string[][] = [];
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  try {
    for (const cut of at) {
      reader.write(text.slice(from, cut), false, out);
      from = cut;
    }
    reader.write(text.slice(from), true, out);
    return out;
  } catch {
    return "error";
  }
}

// Short strings over the characters that matter to CSV, so that every odd combination comes up.
const csvish = textOf(",");

/** Such strings with `separator` where a comma would be. */
function textOf(separator: string) {
  return fc.array(fc.constantFrom("a", "b", "8944", " ", separator, '"', '""', "\n", "\r", "\r\n", "é"), { maxLength: 40 }).map((parts) => parts.join(""));
}

describe("CsvRecordReader", () => {
  it("reads what csv-parse reads (bom, relax_quotes, relax_column_count, skip_empty_lines), however the text is cut", () => {
    fc.assert(
      fc.property(csvish, fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }), (body, bom, cuts) => {
        const text = (bom ? "\uFEFF" : "") + body;
        expect(read(text, cuts)).toEqual(reference(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("reads with a semicolon or a tab for separator what csv-parse reads with that delimiter", () => {
    for (const separator of [";", "\t"]) {
      fc.assert(
        fc.property(textOf(separator), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
          expect(read(text, cuts, separator)).toEqual(reference(text, separator));
        }),
        { numRuns: 2000 },
      );
    }
  });

  it("skips the records of only empty or blank fields as csv-parse's skip_records_with_empty_values does, however the text is cut", () => {
    for (const separator of [",", ";"]) {
      fc.assert(
        fc.property(textOf(separator), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
          expect(read(text, cuts, separator, true)).toEqual(reference(text, separator, true));
        }),
        { numRuns: 2000 },
      );
    }
    const records: string[][] = [];
    const lines: number[] = [];
    new CsvRecordReader(";", { skipEmptyRecords: true }).write("ICCID;Kunde\r\n8944;a\r\n;\r\n \t; \r\n\"\";\r\n8945;b\r\n;;\r\n", true, records, lines);
    expect(records).toEqual([["ICCID", "Kunde"], ["8944", "a"], ["8945", "b"]]);
    expect(lines).toEqual([1, 2, 6]);
    // A reader not told to skip them keeps them.
    expect(read(";;\n8944;a\n", [], ";")).toEqual([["", "", ""], ["8944", "a"]]);
  });

  it("detects the separator from a first line that holds it, however the text is cut", () => {
    for (const separator of SEPARATORS) {
      fc.assert(
        fc.property(fc.constantFrom("\n", "\r\n"), textOf(separator), fc.array(fc.nat(), { maxLength: 6 }), (end, body, cuts) => {
          const text = `"id${separator}1"${separator}iccid${end}${body}`;
          expect(read(text, cuts, "detect")).toEqual(reference(text, separator));
        }),
        { numRuns: 1000 },
      );
    }
  });

  it("detects the separator the first line holds most of outside quotes, else a comma", () => {
    const cases: [string, string][] = [
      ["id;iccid\r\n1;89441000000000000018\r\n", ";"],
      ["id\ticcid\n1\t8944\n", "\t"],
      ["\n\r\nid;iccid\n1;2\n", ";"], // blank lines before the header
      ['"a, b; c";"d,e";f\n1;2;3\n', ";"], // separators inside quotes do not count
      ['"say ""x,y""";b\n', ";"],
      ["a,b;c\n", ","], // a tie
      ["iccid\n8944;1\n", ","], // none on the first line: one column
      ['"two\nlines";b\n', ";"], // a first record that spans lines
      ["a;b", ";"], // no line end at all
    ];
    for (const [text, separator] of cases) {
      for (let cut = 0; cut <= text.length; cut++) expect(read(text, [cut], "detect"), `${JSON.stringify(text)} cut at ${cut}`).toEqual(reference(text, separator));
    }
    const reader = new CsvRecordReader("detect");
    expect(reader.fieldSeparator).toBeUndefined();
    reader.write("id;iccid\n", false, []);
    expect(reader.fieldSeparator).toBe(";");
  });

  it("takes a first line sep=X (Excel's hint) for the separator, not for a record, and counts its line", () => {
    const cases: [string, string, string][] = [
      ["sep=;\r\nKunde;ICCID\r\nA;8944\r\n", "Kunde;ICCID\r\nA;8944\r\n", ";"],
      ["\uFEFFSEP=|\na|b,c\n", "a|b,c\n", "|"],
      ["sep=,\na;b;c\n", "a;b;c\n", ","], // the hint beats the line's own count
      ["sep=;", "", ";"],
    ];
    for (const [text, rest, separator] of cases) {
      for (let cut = 0; cut <= text.length; cut++) expect(read(text, [cut], "detect"), `${JSON.stringify(text)} cut at ${cut}`).toEqual(reference(rest, separator));
    }
    // Given a separator, the reader keeps it and still drops the hint.
    expect(read("sep=;\na,b\n", [], ",")).toEqual([["a", "b"]]);
    expect(readCsv("sep=;\na;b\n\nc\n").lines).toEqual([2, 4]);
    // Not a hint: more after the character, or no character.
    expect(read("sep=;x\n1\n", [], "detect")).toEqual([["sep=", "x"], ["1"]]);
    expect(read("sep=\n1\n", [], "detect")).toEqual([["sep="], ["1"]]);
  });

  it("decides on a first line longer than 64 Ki characters without waiting for its end", () => {
    const reader = new CsvRecordReader("detect");
    reader.write("a;".repeat(40_000), false, []);
    expect(reader.fieldSeparator).toBe(";");
  });

  it("refuses a separator that is not one character, or is a quote or a line end", () => {
    for (const separator of ["", ";;", '"', "\n", "\r"]) expect(() => new CsvRecordReader(separator)).toThrow(CsvSeparatorError);
    expect(new CsvRecordReader("|").fieldSeparator).toBe("|");
  });

  it("handles the cases by name", () => {
    const cases = [
      "\uFEFFa,b\r\n1,2\r\n",
      'x,"a, b","say ""hi""",z\n',
      '"two\r\nlines",x\r\n\r\n\r\ny\r\n',
      'ab"c,"d"e,f\n', // quotes inside unquoted fields, and text after a closing quote
      '"",\n""\n\n', // an empty quoted field is a record; a blank line is not
      "a\nb\r\nc\rd\n", // LF first: the \r is text
      "a\r\nb\nc\r\n", // CRLF first: the lone \n is text
      '"open\n', // an unclosed quote is an error
      "no line end",
    ];
    for (const text of cases) expect(read(text), JSON.stringify(text)).toEqual(reference(text));
    for (const text of cases) for (let cut = 0; cut <= text.length; cut++) expect(read(text, [cut])).toEqual(reference(text));
  });
});

describe("the line each record starts on", () => {
  const lines = (text: string, cuts: number[] = []) => {
    const reader = new CsvRecordReader();
    const out: string[][] = [];
    const starts: number[] = [];
    let from = 0;
    for (const cut of cuts) {
      reader.write(text.slice(from, cut), false, out, starts);
      from = cut;
    }
    reader.write(text.slice(from), true, out, starts);
    return { records: out, lines: starts };
  };

  it("counts every record delimiter, \\n, \\r\\n or \\r, blank lines and line breaks inside quotes, however the text is cut", () => {
    for (const end of ["\n", "\r\n", "\r"]) {
      const text = ["a,b", "", "c", '"d', 'e",f', "", "", "g"].join(end) + end;
      // Only a \n ends a line inside quotes: where \r alone ends records, the quoted one is not counted.
      const expected = { records: [["a", "b"], ["c"], [`d${end}e`, "f"], ["g"]], lines: end === "\r" ? [1, 3, 4, 7] : [1, 3, 4, 8] };
      expect(readCsv(text), JSON.stringify(end)).toEqual(expected);
      for (let cut = 0; cut <= text.length; cut++) expect(lines(text, [cut])).toEqual(expected);
    }
  });

  it("names the line where an unclosed quote's record starts, whatever the line end", () => {
    for (const end of ["\n", "\r\n"]) {
      expect(() => readCsv(["a", "b", '"c', "d"].join(end))).toThrow(expect.objectContaining({ line: 3, message: expect.stringMatching(/at line 3$/) }));
    }
  });
});
