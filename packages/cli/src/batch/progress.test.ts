import { expect, it } from "vitest";
import { progressText } from "./progress.js";

it("shows rows, rate, and with a known size the share done and the time left", () => {
  expect(progressText(12_000, 4_000, undefined)).toBe("12,000 rows · 3,000 rows/s");
  expect(progressText(25_000, 10_000, 0.25)).toBe("25,000 rows · 2,500 rows/s · 25% · ETA 0:30");
  expect(progressText(1, 3_600_000, 0.5)).toContain("ETA 1:00:00");
});
