import { afterTwoTurns } from "./grouping-window.js";
import type { Charge, ChargeOutcome } from "../store.js";

interface Pending {
  charge: Charge;
  resolve: (outcome: ChargeOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: charges are checked and metered one after another inside ONE transaction, and each
 * request is answered only after that transaction committed. A commit takes the charges of two event-loop
 * turns (grouping-window.ts); charges that arrive while a commit is under way wait for the next one, so the
 * group's size follows the load: one charge per commit when idle, many when busy. Quota semantics are
 * unchanged (each conditional UPSERT sees the ones before it); what is saved is a commit (on PostgreSQL, an
 * fsync and a round trip) per request.
 *
 * Where a commit is dear (`gatherMs` > 0), a group waits up to `gatherMs` to be as large as
 * the last commit was together with the charges that came while it ran: the requests the clients keep
 * going. Clients that keep N requests going otherwise settle into two groups committing in turn, each
 * waiting on the other's commit: twice the commits, and twice the times the instance sleeps and wakes.
 * The wait is bounded, and the size it waits for follows the load down after one commit.
 */
export class GroupCommit {
  #pending: Pending[] = [];
  #committing: Promise<void> | undefined;
  #scheduled = false;
  /** Holds a group back for more charges, `gatherMs` at most. */
  #gathering: NodeJS.Timeout | undefined;
  /** What a group waits to reach: the charges of the last commit and those that came while it ran. */
  #target = 1;

  constructor(
    private readonly commit: (charges: Charge[]) => Promise<ChargeOutcome[]>,
    private readonly gatherMs = 0,
  ) {}

  add(charge: Charge): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ charge, resolve, reject });
      if (this.#committing || this.#scheduled) return;
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
    const group = this.#pending;
    this.#pending = [];
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
      outcomes = await this.commit(group.map((p) => p.charge));
    } catch (error) {
      failure = error;
    }
    // The next group's size, taken before these clients are answered and come back.
    this.#target = group.length + this.#pending.length;
    if (outcomes) group.forEach((p, i) => p.resolve(outcomes[i]!));
    else for (const p of group) p.reject(failure);
  }
}
