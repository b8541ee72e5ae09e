import type { Charge, ChargeOutcome } from "../store.js";

interface Pending {
  charge: Charge;
  resolve: (outcome: ChargeOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: charges that arrive in the same turn of the event loop are checked and metered one after
 * another inside ONE transaction, and each request is answered only after that transaction committed.
 * Quota semantics are unchanged (each conditional UPSERT sees the ones before it); what is saved is a
 * commit per request, the largest cost of a lookup.
 */
export class ChargeBatch {
  #pending: Pending[] = [];

  constructor(
    private readonly commit: (charges: Charge[]) => ChargeOutcome[],
    private readonly mapError: (error: unknown) => unknown,
  ) {}

  add(charge: Charge): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ charge, resolve, reject });
      if (this.#pending.length === 1) setImmediate(this.flush);
    });
  }

  /** Commits what is pending now (also called before the database closes). */
  readonly flush = (): void => {
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
    let outcomes: ChargeOutcome[];
    try {
      outcomes = this.commit(batch.map((p) => p.charge));
    } catch (error) {
      const mapped = this.mapError(error);
      for (const p of batch) p.reject(mapped);
      return;
    }
    batch.forEach((p, i) => p.resolve(outcomes[i]!));
  };
}
