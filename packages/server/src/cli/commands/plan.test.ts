import { describe, expect, it } from "vitest";
import { describePlan } from "./plan.js";

describe("the operator's plan lines", () => {
  it("describe a plan of one request and one lookup in the singular", () => {
    expect(describePlan({ name: "tiny", rate_limit: 1, window_seconds: 60, monthly_lookups: 1 })).toBe("tiny: 1 request / 60 s, 1 lookup / month");
    expect(describePlan({ name: "pro", rate_limit: 1200, window_seconds: 60, monthly_lookups: 1_000_000 })).toBe(
      "pro: 1,200 requests / 60 s, 1,000,000 lookups / month",
    );
  });
});
