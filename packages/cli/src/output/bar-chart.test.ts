import { describe, expect, it } from "vitest";
import { bar, barChart } from "./bar-chart.js";

describe("bar chart", () => {
  it("scales to the width in eighths, with a sliver for any non-zero value", () => {
    expect(bar(10, 10, 4)).toBe("████");
    expect(bar(5, 10, 4)).toBe("██");
    expect(bar(1, 16, 2)).toBe("▏");
    expect(bar(0, 10, 4)).toBe("");
    expect(bar(3, 0, 4)).toBe("");
  });

  it("aligns labels, bars and values", () => {
    const text = barChart([{ label: "2026-11-01", value: 300 }, { label: "2026-11-02", value: 1500 }], 10);
    expect(text.split("\n")).toEqual([`2026-11-01 │${"██".padEnd(10)}   300`, "2026-11-02 │██████████ 1,500", ""]);
  });
});
