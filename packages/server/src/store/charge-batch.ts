import { afterTwoTurns } from "../grouping-window.js";
import type { Charge, ChargeOutcome } from "./store.js";

interface Pending {
  charge: Charge;
  resolve: (outcome: ChargeOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: charges are checked and metered one after another inside ONE transaction, and each
 * request is answered only after that transaction committed. A commit takes the charges of two event-loop
 * turns (grouping-window.ts); charges that arrive while a commit is under way wait for the next one, so the batch size follows the load: one charge per commit when idle, many
 * when busy. Quota semantics are unchanged (each conditional UPSERT sees the ones before it); what is
 * saved is a commit (a WAL write, on PostgreSQL an fsync and round trips) per request.
 */
export class ChargeBatch {
  #pending: Pending[] = [];
  #committing: Promise<void> | undefined;
  #scheduled = false;

  constructor(
    private readonly commit: (charges: Charge[]) => Promise<ChargeOutcome[]>,
  ) {}

  add(charge: Charge): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ charge, resolve, reject });
      if (!this.#scheduled && !this.#committing) {
        this.#scheduled = true;
        afterTwoTurns(() => {
          this.#scheduled = false;
          void this.#flush();
        });
      }
    });
  }

  /** Resolves once nothing is pending or being committed (before the store closes). */
  async drain(): Promise<void> {
    while (this.#committing || this.#pending.length > 0) await (this.#committing ?? this.#flush());
  }

  #flush(): Promise<void> {
    if (this.#committing || this.#pending.length === 0) return this.#committing ?? Promise.resolve();
    const batch = this.#pending;
    this.#pending = [];
    // Cleared in a `.finally` callback, which always runs after this assignment: a commit that throws
    // synchronously (a SQLite write error) must not leave a finished commit marked as running for good.
    const committing = this.#commit(batch).finally(() => {
      this.#committing = undefined;
      if (this.#pending.length > 0) void this.#flush();
    });
    this.#committing = committing;
    return committing;
  }

  async #commit(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.commit(batch.map((p) => p.charge));
      batch.forEach((p, i) => p.resolve(outcomes[i]!));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}
