import type { Charge, ChargeOutcome } from "../store.js";

/**
 * Charges of one group commit that move the same counters: one account's quota in one period and one
 * usage bucket of one key. A busy client's requests, answered in one commit, are usually one such group.
 */
export interface ChargeGroup {
  /** Indexes into the commit's charges, in arrival order. */
  indexes: number[];
  /** The group as one charge: the sum of its lookups. */
  merged: Charge;
  /** How many requests it meters. */
  requests: number;
}

const countersOf = (c: Charge) => `${c.account_id}\u0000${c.period_start}\u0000${c.quota_limit}\u0000${c.bucket_start}\u0000${c.key_id}`;

/**
 * A commit's charges grouped by the counters they move, groups ordered by account (rows are locked in
 * one global order, so instances committing groups that touch the same accounts wait for each other
 * instead of deadlocking).
 */
export function chargeGroups(charges: readonly Charge[]): ChargeGroup[] {
  const groups = new Map<string, ChargeGroup>();
  charges.forEach((charge, index) => {
    const counters = countersOf(charge);
    const group = groups.get(counters);
    if (!group) groups.set(counters, { indexes: [index], merged: { ...charge }, requests: 1 });
    else {
      group.indexes.push(index);
      group.merged.lookups += charge.lookups;
      group.requests++;
    }
  });
  return [...groups.values()].sort((a, b) => (a.merged.account_id < b.merged.account_id ? -1 : a.merged.account_id > b.merged.account_id ? 1 : 0));
}

/**
 * Each charge's outcome when its whole group was charged at once: what charging them one after another in
 * arrival order would have answered (each sees the lookups of the ones before it).
 */
export function outcomesOfChargedGroup(charges: readonly Charge[], group: ChargeGroup, usedAfter: number): Array<[number, ChargeOutcome]> {
  let used = usedAfter - group.merged.lookups;
  return group.indexes.map((i) => [i, { charged: true, used: (used += charges[i]!.lookups) }]);
}

/**
 * Charges a commit's charges group by group with `charge` (a charge of `requests` requests, checked
 * against the quota on its own): a group as one charge, and, when it did not fit as a whole, its charges
 * one by one in arrival order. Each charge gets the outcome that charging them all one by one would have given it: if
 * a group fits, every one of its charges does in turn. PostgreSQL runs these steps server-side
 * (commit_charges, migrations 5 and 9), and the instance replays its answers through here to read them.
 */
export function chargeByGroups(
  charges: readonly Charge[],
  charge: (c: Charge, requests: number) => ChargeOutcome,
  groups: readonly ChargeGroup[] = chargeGroups(charges),
): ChargeOutcome[] {
  const outcomes: ChargeOutcome[] = new Array(charges.length);
  for (const group of groups) {
    const whole = charge(group.merged, group.requests);
    if (whole.charged) for (const [i, outcome] of outcomesOfChargedGroup(charges, group, whole.used)) outcomes[i] = outcome;
    else if (group.indexes.length === 1) outcomes[group.indexes[0]!] = whole;
    else for (const i of group.indexes) outcomes[i] = charge(charges[i]!, 1);
  }
  return outcomes;
}
