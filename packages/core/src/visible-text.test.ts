import { describe, expect, it } from "vitest";
import { visibleText } from "./visible-text.js";

describe("text as a terminal shows it", () => {
  it("writes out every control and reordering character, and leaves the rest as it is", () => {
    expect(visibleText("Evil\x1b]0;pwned\x07\x1b[2J MVNO")).toBe("Evil\\x1B]0;pwned\\x07\\x1B[2J MVNO");
    expect(visibleText("\x00\x7f\x9b\u202e\u2066\u2028")).toBe("\\x00\\x7F\\x9B\\u202E\\u2066\\u2028");
    expect(visibleText("Telefónica Móviles — 中国移动 🚀")).toBe("Telefónica Móviles — 中国移动 🚀");
  });

  it("makes tabs and line breaks spaces", () => {
    expect(visibleText("a\tb\r\nc")).toBe("a b  c");
  });
});
