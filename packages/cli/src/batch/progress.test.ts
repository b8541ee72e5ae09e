import { expect, it } from "vitest";
import { progressText } from "./progress.js";

it("shows rows, rate, and with a known size the share done and the time left", () => {
  expect(progressText(12_000, 4_000, undefined)).toBe("12,000 rows · 3,000 rows/s");
  expect(progressText(25_000, 10_000, 0.25)).toBe("25,000 rows · 2,500 rows/s · 25% · ETA 0:30");
  expect(progressText(1, 3_600_000, 0.5)).toContain("ETA 1:00:00");
  expect(progressText(1, 1_000, undefined)).toBe("1 row · 1 rows/s");
});

it("after --resume, counts the time left at this run's pace, not over the rows an earlier run did", () => {
  // Half the input was done before; this run wrote 1,000 rows in 10 s: 5,000 rows left at 100 rows/s.
  expect(progressText(1_000, 10_000, 0.5, 5_000)).toBe("1,000 rows · 100 rows/s · 50% · ETA 0:50");
});
