import { describe, expect, it } from "vitest";
import { tsvText } from "./tsv-line.js";

describe("tab-separated rows", () => {
  it("are one line each, a tab or line break inside a value made a space, a control written out", () => {
    expect(tsvText([["a\tb", "c\r\nd\x1b[31m", ""], ["e", "f", "g"]])).toBe("a b\tc  d\\x1B[31m\t\ne\tf\tg\n");
    expect(tsvText([])).toBe("");
  });
});
