import { describe, expect, it } from "vitest";
import { describePlan } from "./commands/plan.js";
import { counted } from "./counted.js";

describe("counts in the operator's output", () => {
  it("put the noun in the number the count needs", () => {
    expect(counted(0, "prefix", "prefixes")).toBe("0 prefixes");
    expect(counted(1, "prefix", "prefixes")).toBe("1 prefix");
    expect(counted(2, "row")).toBe("2 rows");
    expect(counted(1_200, "request")).toBe("1,200 requests");
  });

  it("describe a plan of one request and one lookup in the singular", () => {
    expect(describePlan({ name: "tiny", rate_limit: 1, window_seconds: 60, monthly_lookups: 1 })).toBe("tiny: 1 request / 60 s, 1 lookup / month");
    expect(describePlan({ name: "pro", rate_limit: 1200, window_seconds: 60, monthly_lookups: 1_000_000 })).toBe(
      "pro: 1,200 requests / 60 s, 1,000,000 lookups / month",
    );
  });
});
