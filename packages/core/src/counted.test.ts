import { expect, it } from "vitest";
import { counted, formatCount, wasOrWere } from "./counted.js";

it("writes a number with thousands separators, and its noun in the number the count needs", () => {
  expect(formatCount(1_234_567)).toBe("1,234,567");
  expect([0, 1, 2, 2_000].map((n) => counted(n, "request"))).toEqual(["0 requests", "1 request", "2 requests", "2,000 requests"]);
  expect([0, 1].map((n) => counted(n, "prefix", "prefixes"))).toEqual(["0 prefixes", "1 prefix"]);
  expect([0, 1, 2].map(wasOrWere)).toEqual(["were", "was", "were"]);
});
