import { describe, expect, it } from "vitest";
import { BAD_LINES_SHOWN, IssuerCsvError, parseIssuerCsv } from "./issuer-csv.js";

const failure = (text: string): string => {
  try {
    parseIssuerCsv(text);
  } catch (error) {
    expect(error).toBeInstanceOf(IssuerCsvError);
    return (error as Error).message;
  }
  throw new Error("parsed without complaint");
};

describe("issuer CSV", () => {
  it("reads good rows, with or without a header", () => {
    expect(parseIssuerCsv("prefix,name,country_iso2\n894410,Ours,gb\n8999901,Private\n")).toEqual([
      { prefix: "894410", name: "Ours", country_iso2: "GB" },
      { prefix: "8999901", name: "Private", country_iso2: null },
    ]);
  });

  it("names the one bad line by itself", () => {
    expect(failure("894410,Fine\n12345,Wrong prefix\n")).toBe('line 2: prefix must be 4 to 21 digits starting with 89 (got "12345")');
  });

  it("reports every bad line, each with what is wrong, not only the first", () => {
    const text = ["prefix,name,country_iso2", "894410,Fine", "12,Short", "894410,Again", "8944,", "8945,Name,XX", "8946,Ok,GB,extra"].join("\n");
    expect(failure(text)).toBe(
      [
        "5 bad lines, nothing imported:",
        '  line 3: prefix must be 4 to 21 digits starting with 89 (got "12")',
        "  line 4: prefix 894410 appears twice",
        "  line 5: name must be 1 to 200 characters",
        '  line 6: country_iso2 must be an ISO 3166-1 alpha-2 code (got "XX")',
        "  line 7: expected prefix,name[,country_iso2], got 4 fields",
      ].join("\n"),
    );
  });

  it("lists the first bad lines of a long file and counts the rest", () => {
    const bad = 57;
    const text = Array.from({ length: bad }, (_, i) => `1${i},Bad`).join("\n");
    const lines = failure(text).split("\n");
    expect(lines[0]).toBe(`${bad} bad lines, nothing imported:`);
    expect(lines.slice(1, -1)).toHaveLength(BAD_LINES_SHOWN);
    expect(lines[1]).toMatch(/^ {2}line 1: /);
    expect(lines[BAD_LINES_SHOWN]).toMatch(new RegExp(`^ {2}line ${BAD_LINES_SHOWN}: `));
    expect(lines.at(-1)).toBe(`  … and ${bad - BAD_LINES_SHOWN} more bad lines`);
  });
});
