import { describe, expect, it } from "vitest";
import { tsvText } from "./tsv-line.js";

describe("tab-separated rows", () => {
  it("are one line each, a tab or line break inside a value made a space", () => {
    expect(tsvText([["a\tb", "c\r\nd", ""], ["e", "f", "g"]])).toBe("a b\tc  d\t\ne\tf\tg\n");
    expect(tsvText([])).toBe("");
  });
});
