import { describe, expect, it } from "vitest";
import { QuotaExceeded } from "./refusals.js";

describe("refusals in words", () => {
  it("write quota figures with thousands separators", () => {
    expect(new QuotaExceeded(1_000, 250, 1_000_000, 0, 1).message).toBe("This request needs 1,000 lookups but 250 of 1,000,000 remain this period.");
    expect(new QuotaExceeded(1, 0, 10, 0, 1).message).toBe("This request needs 1 lookup but 0 of 10 remain this period.");
  });
});
