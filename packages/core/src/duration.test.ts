import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration.js";

describe("parseDuration", () => {
  it("reads a whole number with one unit", () => {
    expect(parseDuration("90d")).toBe(90 * 86_400_000);
    expect(parseDuration("24h")).toBe(86_400_000);
    expect(parseDuration("30m")).toBe(1_800_000);
    expect(parseDuration("45s")).toBe(45_000);
    expect(parseDuration("2w")).toBe(14 * 86_400_000);
    expect(parseDuration("0s")).toBe(0);
  });

  it("answers undefined for anything else", () => {
    for (const text of ["", "90", "d", "1.5h", "-1d", "1y", "1d2h", "90 days", "1e3s"]) expect(parseDuration(text)).toBeUndefined();
  });
});
