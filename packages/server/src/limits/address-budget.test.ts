import { describe, expect, it } from "vitest";
import { addressBudgetKey } from "./address-budget.js";

describe("a per-address budget", () => {
  it("counts an address as itself (IPv4) or its /64 (IPv6)", () => {
    expect(addressBudgetKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressBudgetKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBudgetKey("2001:db8:1:2:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:2::/64");
    expect(addressBudgetKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
  });
});
