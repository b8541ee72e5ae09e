import { describe, expect, it } from "vitest";
import { chargeByGroups, chargeGroups, GroupCommit, outcomesOfChargedGroup } from "./group-commit.js";
import { DEFAULT_QUERY_TIMEOUT_MS } from "../errors.js";
import type { Charge, ChargeOutcome } from "../store.js";

const charge = (lookups: number): Charge => ({
  account_id: "acc_1",
  key_id: "key_1",
  period_start: 0,
  bucket_start: 0,
  lookups,
  quota_limit: 100,
});

/**
 * A group commit that charges everything and records each commit as its charges' lookups. Gated, its
 * first commit waits for `release`; `firstUnderWay` resolves once that commit has started.
 */
function recordingGroupCommit(gatherMs = 0, { gated = false } = {}) {
  const commits: number[][] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  if (!gated) release();
  const groupCommit = new GroupCommit(async (charges): Promise<ChargeOutcome[]> => {
    commits.push(charges.map((c) => c.lookups));
    if (commits.length === 1) await gate;
    return charges.map((c) => ({ charged: true, used: c.lookups }));
  }, gatherMs, DEFAULT_QUERY_TIMEOUT_MS);
  const firstUnderWay = async () => {
    while (commits.length === 0) await new Promise((resolve) => setImmediate(resolve));
  };
  return { groupCommit, commits, release, firstUnderWay };
}

describe("GroupCommit", () => {
  it("commits the charges of this event-loop turn and the next together, and a lone charge at once", async () => {
    const { groupCommit, commits } = recordingGroupCommit();
    const first = [groupCommit.add(charge(1)), groupCommit.add(charge(2))];
    await new Promise((resolve) => setImmediate(resolve)); // the next turn
    const next = groupCommit.add(charge(3));
    await Promise.all([...first, next]);
    expect(commits).toEqual([[1, 2, 3]]);

    const started = performance.now();
    await groupCommit.add(charge(4));
    expect(commits).toEqual([[1, 2, 3], [4]]);
    expect(performance.now() - started).toBeLessThan(1_000); // two turns of an idle loop, not a timer
  });

  it("keeps committing after a commit that throws synchronously (a SQLite write error)", async () => {
    let failNext = true;
    const groupCommit = new GroupCommit((charges): Promise<ChargeOutcome[]> => {
      if (failNext) {
        failNext = false;
        throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      }
      return Promise.resolve(charges.map((c) => ({ charged: true, used: c.lookups })));
    }, 0, DEFAULT_QUERY_TIMEOUT_MS);
    await expect(groupCommit.add(charge(1))).rejects.toThrow("database or disk is full");
    await expect(groupCommit.add(charge(2))).resolves.toEqual({ charged: true, used: 2 });
    await groupCommit.drain();
  });

  it("keeps committing after a commit that rejects, and hands its error to every charge of it", async () => {
    let failNext = true;
    const groupCommit = new GroupCommit(async (charges): Promise<ChargeOutcome[]> => {
      if (failNext) {
        failNext = false;
        throw new Error("connection terminated");
      }
      return charges.map((c) => ({ charged: true, used: c.lookups }));
    }, 0, DEFAULT_QUERY_TIMEOUT_MS);
    await expect(groupCommit.add(charge(1))).rejects.toThrow("connection terminated");
    await expect(groupCommit.add(charge(3))).resolves.toEqual({ charged: true, used: 3 });
    await groupCommit.drain();
  });

  it("answers charges that arrive during a commit in the next commit, in order", async () => {
    const { groupCommit, commits, release, firstUnderWay } = recordingGroupCommit(0, { gated: true });
    const first = groupCommit.add(charge(1));
    await firstUnderWay();
    const later = [groupCommit.add(charge(2)), groupCommit.add(charge(3))];
    release();
    await Promise.all([first, ...later]);
    await groupCommit.drain();
    expect(commits).toEqual([[1], [2, 3]]);
  });
});

describe("GroupCommit with a gather time", () => {
  it("holds a group back until it is as large as the last commit's, and no longer than the gather time", async () => {
    const { groupCommit, commits } = recordingGroupCommit(200);
    await Promise.all([groupCommit.add(charge(1)), groupCommit.add(charge(2)), groupCommit.add(charge(3))]);
    expect(commits).toEqual([[1, 2, 3]]);

    // Three charges filled the last commit: two wait for a third, which makes the group and commits it at once.
    const two = [groupCommit.add(charge(4)), groupCommit.add(charge(5))];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(commits).toHaveLength(1);
    const started = performance.now();
    await Promise.all([...two, groupCommit.add(charge(6))]);
    expect(commits).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(performance.now() - started).toBeLessThan(150);

    // A group that does not fill goes after the gather time, and the next waits for no more than it held.
    const waited = performance.now();
    await groupCommit.add(charge(7));
    expect(performance.now() - waited).toBeGreaterThanOrEqual(150);
    expect(commits).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    const alone = performance.now();
    await groupCommit.add(charge(8));
    expect(performance.now() - alone).toBeLessThan(150);
    expect(commits).toEqual([[1, 2, 3], [4, 5, 6], [7], [8]]);
  });

  it("counts the charges that came during a commit towards the next group's size", async () => {
    const { groupCommit, commits, release, firstUnderWay } = recordingGroupCommit(60_000, { gated: true });
    const first = groupCommit.add(charge(1));
    await firstUnderWay();
    const during = [groupCommit.add(charge(2)), groupCommit.add(charge(3))];
    release();
    await first;
    // The first client is answered and comes back: its charge completes a group of three.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(commits).toEqual([[1]]);
    await Promise.all([...during, groupCommit.add(charge(4))]);
    expect(commits).toEqual([[1], [2, 3, 4]]);
  });

  it("commits a held-back group when drained (the store closing)", async () => {
    const { groupCommit, commits } = recordingGroupCommit(60_000);
    await Promise.all([groupCommit.add(charge(1)), groupCommit.add(charge(2))]);
    const held = groupCommit.add(charge(3));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(commits).toEqual([[1, 2]]);
    await groupCommit.drain();
    await expect(held).resolves.toEqual({ charged: true, used: 3 });
    expect(commits).toEqual([[1, 2], [3]]);
  });
});

const accountCharge = (account_id: string, lookups: number, key_id = "k1"): Charge => ({
  account_id,
  key_id,
  period_start: 0,
  bucket_start: 0,
  lookups,
  quota_limit: 100,
});

describe("chargeGroups", () => {
  it("merges the charges that move the same counters, in arrival order, groups ordered by account", () => {
    const charges = [accountCharge("b", 1), accountCharge("a", 2), accountCharge("b", 3), accountCharge("a", 1, "k2"), accountCharge("a", 4)];
    const groups = chargeGroups(charges);
    expect(groups.map((g) => [g.merged.account_id, g.merged.key_id, g.indexes, g.merged.lookups, g.requests])).toEqual([
      ["a", "k1", [1, 4], 6, 2],
      ["a", "k2", [3], 1, 1],
      ["b", "k1", [0, 2], 4, 2],
    ]);
    expect(charges[1]!.lookups).toBe(2); // the charges themselves are not changed
  });

  it("answers each charge of a charged group what charging them one by one would have", () => {
    const charges = [accountCharge("a", 2), accountCharge("a", 0), accountCharge("a", 5)];
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
    const charges = [accountCharge("a", 30), accountCharge("b", 3), accountCharge("a", 40), accountCharge("b", 4), accountCharge("b", 1)];
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
