import { describe, expect, it } from "vitest";
import { isUsageDate } from "./date-argument.js";

describe("isUsageDate", () => {
  it("takes the dates and timestamps the server's usage query takes", () => {
    for (const value of ["2026-11-01", "2024-02-29", "2026-11-01T10:30:00Z", "2026-11-01T10:30:00.123+01:00", "2026-11-01T23:59:59-05:30"]) {
      expect(isUsageDate(value), value).toBe(true);
    }
  });

  it("refuses what the server refuses: a time alone, no seconds, no offset, a day not on the calendar", () => {
    for (const value of ["10:30", "2026-11-01T10:30Z", "2026-11-01T10:30:00", "2026-02-30", "2025-02-29", "2026-13-01", "2026-11-01T24:00:00Z", "2026-11-01t10:30:00z", "2026-11-01 10:30:00Z", ""]) {
      expect(isUsageDate(value), value).toBe(false);
    }
  });
});
