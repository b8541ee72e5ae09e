import { describe, expect, it } from "vitest";
import { chargeByGroups, chargeGroups, outcomesOfChargedGroup } from "./charge-groups.js";
import type { Charge, ChargeOutcome } from "../store.js";

const charge = (account_id: string, lookups: number, key_id = "k1"): Charge => ({
  account_id,
  key_id,
  period_start: 0,
  bucket_start: 0,
  lookups,
  quota_limit: 100,
});

describe("chargeGroups", () => {
  it("merges the charges that move the same counters, in arrival order, groups ordered by account", () => {
    const charges = [charge("b", 1), charge("a", 2), charge("b", 3), charge("a", 1, "k2"), charge("a", 4)];
    const groups = chargeGroups(charges);
    expect(groups.map((g) => [g.merged.account_id, g.merged.key_id, g.indexes, g.merged.lookups, g.requests])).toEqual([
      ["a", "k1", [1, 4], 6, 2],
      ["a", "k2", [3], 1, 1],
      ["b", "k1", [0, 2], 4, 2],
    ]);
    expect(charges[1]!.lookups).toBe(2); // the charges themselves are not changed
  });

  it("answers each charge of a charged group what charging them one by one would have", () => {
    const charges = [charge("a", 2), charge("a", 0), charge("a", 5)];
    const [group] = chargeGroups(charges);
    // The counter stood at 10 before; the group of 7 took it to 17.
    expect(outcomesOfChargedGroup(charges, group!, 17)).toEqual([
      [0, { charged: true, used: 12 }],
      [1, { charged: true, used: 12 }],
      [2, { charged: true, used: 17 }],
    ]);
  });

  it("charges a group as one when it fits, and one by one in arrival order when it does not", () => {
    // Quota counters as a store keeps them, each charge checked against its own limit.
    const used = new Map<string, number>();
    const calls: Array<[string, number, number]> = [];
    const chargeOne = (c: Charge, requests: number): ChargeOutcome => {
      calls.push([c.account_id, c.lookups, requests]);
      const before = used.get(c.account_id) ?? 0;
      if (before + c.lookups > c.quota_limit) return { charged: false, used: before };
      used.set(c.account_id, before + c.lookups);
      return { charged: true, used: before + c.lookups };
    };
    used.set("b", 95);
    const charges = [charge("a", 30), charge("b", 3), charge("a", 40), charge("b", 4), charge("b", 1)];
    expect(chargeByGroups(charges, chargeOne)).toEqual([
      { charged: true, used: 30 },
      { charged: true, used: 98 },
      { charged: true, used: 70 },
      { charged: false, used: 98 },
      { charged: true, used: 99 },
    ]);
    // a's group fit as a whole: one call for two requests; b's (8 lookups onto 95 of 100) did not.
    expect(calls).toEqual([["a", 70, 2], ["b", 8, 3], ["b", 3, 1], ["b", 4, 1], ["b", 1, 1]]);
  });
});
