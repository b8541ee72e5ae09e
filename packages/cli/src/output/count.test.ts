import { expect, it } from "vitest";
import { count, counted } from "./count.js";

it("writes a number with thousands separators, and its noun singular for one only", () => {
  expect(count(1_234_567)).toBe("1,234,567");
  expect([0, 1, 2, 2_000].map((n) => counted(n, "request"))).toEqual(["0 requests", "1 request", "2 requests", "2,000 requests"]);
});
