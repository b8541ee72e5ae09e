import { StoreUnavailable } from "../errors.js";
import type { Charge, ChargeOutcome } from "../store.js";

/**
 * Runs `flush` once the I/O of this event-loop turn and of the next has been read: the window in which a
 * group commit gathers its charges. Clients that keep several requests going send them in bursts, which the server reads over
 * a turn or two, so two turns catch a burst whole where one would catch part of it. An idle server comes
 * to the next turn at once, since nothing is left to wait for, so a lone request waits no longer.
 */
function afterTwoTurns(flush: () => void): void {
  setImmediate(() => setImmediate(flush));
}

interface Pending {
  charge: Charge;
  resolve: (outcome: ChargeOutcome) => void;
  reject: (error: unknown) => void;
  /** When its request must be answered by (performance.now): the query timeout after it was added. */
  deadline: number;
}

/** What a charge's request is told when it could not even be sent within the query timeout. */
const waitedTooLong = () => new StoreUnavailable({ cause: new Error("a charge waited past the query timeout for the commit before it") });

/**
 * Group commit: charges are checked and metered one after another inside ONE transaction, and each
 * request is answered only after that transaction committed. A commit takes the charges of two event-loop
 * turns (afterTwoTurns); charges that arrive while a commit is under way wait for the next one, so the
 * group's size follows the load: one charge per commit when idle, many when busy. Quota semantics are
 * unchanged (each conditional UPSERT sees the ones before it); what is saved is a commit (on PostgreSQL, an
 * fsync and a round trip) per request.
 *
 * Where a commit is dear (`gatherMs` > 0), a group waits up to `gatherMs` to be as large as
 * the last commit was together with the charges that came while it ran: the requests the clients keep
 * going. Clients that keep N requests going otherwise settle into two groups committing in turn, each
 * waiting on the other's commit: twice the commits, and twice the times the instance sleeps and wakes.
 * The wait is bounded, and the size it waits for follows the load down after one commit.
 *
 * Every charge is answered within `timeoutMs` (the query timeout) of its arrival: one still waiting for
 * the commit before it by then is answered StoreUnavailable unsent, so charged nothing; a commit is handed
 * the deadline of its oldest charge and must settle by then. A commit that failed StoreUnavailable, or a
 * charge that waited out its time, marks the charges as stalled (`stalled`, for readiness) until a commit
 * succeeds, or for twice the query timeout after the last such failure when no charge comes.
 */
export class GroupCommit {
  #pending: Pending[] = [];
  #committing: Promise<void> | undefined;
  #scheduled = false;
  /** Holds a group back for more charges, `gatherMs` at most. */
  #gathering: NodeJS.Timeout | undefined;
  /** What a group waits to reach: the charges of the last commit and those that came while it ran. */
  #target = 1;
  /** Answers the charges that wait behind a commit past their deadlines. */
  #expiry: NodeJS.Timeout | undefined;
  /** When the commit under way started; when charges were last answered StoreUnavailable (performance.now). */
  #committingSince = 0;
  #failedAt: number | undefined;

  constructor(
    private readonly commit: (charges: Charge[], deadline: number) => Promise<ChargeOutcome[]>,
    private readonly gatherMs = 0,
    private readonly timeoutMs: number,
  ) {}

  add(charge: Charge): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ charge, resolve, reject, deadline: performance.now() + this.timeoutMs });
      if (this.#committing) return this.#expireLater();
      if (this.#scheduled) return;
      if (this.#gathering) {
        if (this.#pending.length >= this.#target) void this.#flush();
        return;
      }
      this.#scheduled = true;
      afterTwoTurns(() => {
        this.#scheduled = false;
        this.#ready();
      });
    });
  }

  /**
   * Whether charges cannot be committed now: a commit has been under way longer than the query timeout,
   * or the last charges answered were answered StoreUnavailable (and it is not long since).
   */
  get stalled(): boolean {
    const now = performance.now();
    if (this.#committing && now - this.#committingSince > this.timeoutMs) return true;
    return this.#failedAt !== undefined && now - this.#failedAt < 2 * this.timeoutMs;
  }

  /** Resolves once nothing is pending or being committed (before the store closes). */
  async drain(): Promise<void> {
    while (this.#committing || this.#pending.length > 0) await (this.#committing ?? this.#flush());
  }

  /** The window closed, or a commit ended with charges waiting: commit them, or first gather the group. */
  #ready(): void {
    if (this.#committing || this.#pending.length === 0) return;
    if (this.gatherMs === 0 || this.#pending.length >= this.#target) void this.#flush();
    else this.#gathering ??= setTimeout(() => void this.#flush(), this.gatherMs);
  }

  #flush(): Promise<void> {
    clearTimeout(this.#gathering);
    this.#gathering = undefined;
    if (this.#committing || this.#pending.length === 0) return this.#committing ?? Promise.resolve();
    clearTimeout(this.#expiry);
    this.#expiry = undefined;
    const now = performance.now();
    // Pending charges are in deadline order: those past theirs (a slow turn of the event loop) go unsent.
    const late = this.#pending.findIndex((p) => p.deadline > now);
    const group = late === -1 ? [] : this.#pending.slice(late);
    this.#expire(late === -1 ? this.#pending : this.#pending.slice(0, late));
    this.#pending = [];
    if (group.length === 0) return Promise.resolve();
    this.#committingSince = now;
    // Cleared in a `.finally` callback, which always runs after this assignment: a commit that throws
    // synchronously must not leave a finished commit marked as running for good.
    const committing = this.#commit(group).finally(() => {
      this.#committing = undefined;
      this.#ready();
    });
    this.#committing = committing;
    return committing;
  }

  async #commit(group: Pending[]): Promise<void> {
    let outcomes: ChargeOutcome[] | undefined;
    let failure: unknown;
    try {
      outcomes = await this.commit(group.map((p) => p.charge), group[0]!.deadline);
    } catch (error) {
      failure = error;
    }
    // The next group's size, taken before these clients are answered and come back.
    this.#target = group.length + this.#pending.length;
    if (outcomes) {
      this.#failedAt = undefined;
      group.forEach((p, i) => p.resolve(outcomes[i]!));
    } else {
      if (failure instanceof StoreUnavailable) this.#failedAt = performance.now();
      for (const p of group) p.reject(failure);
    }
  }

  /** While a commit is under way: a timer for the first deadline of the charges waiting behind it. */
  #expireLater(): void {
    if (this.#expiry || this.#pending.length === 0) return;
    this.#expiry = setTimeout(
      () => {
        this.#expiry = undefined;
        const now = performance.now();
        const late = this.#pending.findIndex((p) => p.deadline > now);
        this.#expire(this.#pending.splice(0, late === -1 ? this.#pending.length : late));
        this.#expireLater();
      },
      Math.max(0, this.#pending[0]!.deadline - performance.now()),
    );
  }

  #expire(late: readonly Pending[]): void {
    if (late.length === 0) return;
    this.#failedAt = performance.now();
    for (const p of late) p.reject(waitedTooLong());
  }
}

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
