import { describe, expect, it } from "vitest";
import { reflowHelp, wrapAfter, wrapIndented } from "./wrap.js";

const FOOTER = `
Reads a CSV (or - for stdin) and writes one output row per input row, in input order: the input's columns
followed by the result columns (CSV), or one JSON object per line (JSONL).
Exit status: 0 all rows looked up, 3 some rows were malformed (see --errors), 4 key or subscription
problem, 5 rate limit or quota, 130 interrupted.

Examples:
  $ iccid batch sims.csv --column "SIM number" --out results.jsonl --errors failed.jsonl --concurrency 8
`;

describe("help text at the terminal's width", () => {
  it("reflows prose into paragraphs broken at labels, wraps on word boundaries, indents wrapped examples", () => {
    const text = reflowHelp(FOOTER, 80);
    const lines = text.split("\n");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[1]).toBe("Reads a CSV (or - for stdin) and writes one output row per input row, in input");
    expect(lines[2]).toBe("order: the input's columns followed by the result columns (CSV), or one JSON");
    expect(lines[3]).toBe("object per line (JSONL).");
    expect(lines[4]).toBe("Exit status: 0 all rows looked up, 3 some rows were malformed (see --errors), 4");
    expect(lines[5]).toBe("key or subscription problem, 5 rate limit or quota, 130 interrupted.");
    expect(lines[7]).toBe("Examples:");
    expect(lines[8]).toBe('  $ iccid batch sims.csv --column "SIM number" --out results.jsonl --errors');
    expect(lines[9]).toBe("      failed.jsonl --concurrency 8");
    // Every word whole: the words are those of the source, in order.
    expect(text.split(/\s+/).filter(Boolean)).toEqual(FOOTER.split(/\s+/).filter(Boolean));
  });

  it("puts an example's comment above its command when the two do not fit on one line", () => {
    const footer = `Examples:
  $ iccid lookup 89441000000000000018 | cut -f4        # piped: tab-separated, no header
  $ iccid lookup 89441000000000000018                  # one line
`;
    expect(reflowHelp(footer, 80).split("\n")).toEqual([
      "Examples:",
      "  # piped: tab-separated, no header",
      "  $ iccid lookup 89441000000000000018 | cut -f4",
      "  $ iccid lookup 89441000000000000018                  # one line",
      "",
    ]);
    expect(reflowHelp(footer, 100)).toBe(footer);
  });

  it("wraps a value under itself", () => {
    const words = "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll mmm nnn ooo ppp qqq rrr sss ttt uuu vvv www xxx";
    expect(wrapIndented(words, 60, 12)).toBe(
      "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll mmm nnn ooo\n            ppp qqq rrr sss ttt uuu vvv www xxx",
    );
  });

  it("wraps a labelled value under its first line", () => {
    const value = "5,000 of 100,000 lookups used · 95,000 remaining · resets 2026-12-01 00:00 UTC";
    expect(wrapAfter(value, 80, 12)).toBe("5,000 of 100,000 lookups used · 95,000 remaining · resets 2026-12-01\n            00:00 UTC");
  });
});
