import type pg from "pg";
import type { Charge, ChargeOutcome } from "../store.js";
import { claimOnce, type ChargeRun } from "./charge-receipts.js";
import type { Queryable } from "../postgres/pooled-client.js";
import { inTransaction } from "../postgres/transaction.js";

const RETRY_MS = 1_000;

/** A group commit answered 503 before anyone could tell whether it committed. */
interface Unresolved {
  token: string;
  charges: readonly Charge[];
  /** Each charge's outcome, read from the commit's runs (see pg-group-commit.ts). */
  outcomes: (runs: readonly ChargeRun[]) => ChargeOutcome[];
}

/**
 * Commits whose requests were answered 503 while PostgreSQL could not say whether they had committed
 * (claimReceipt gave up): each is claimed again as soon as a later commit succeeds, and every second, until
 * PostgreSQL answers; one that did commit is refunded, its lookups and requests taken off the quota and
 * usage counters in one transaction with its receipt, so that no request answered 503 stays charged.
 * Until then the account's counters are ahead by at most those requests' lookups.
 */
export class ChargeRefunds {
  #pending: Unresolved[] = [];
  #timer: NodeJS.Timeout | undefined;
  #resolving: Promise<void> | undefined;

  constructor(private readonly pool: pg.Pool) {}

  add(unresolved: Unresolved): void {
    this.#pending.push(unresolved);
    this.#retryLater();
  }

  /** PostgreSQL has just answered a commit: settle what is pending now rather than at the next retry. */
  reachable(): void {
    if (this.#pending.length > 0) void this.resolve();
  }

  /** Tries each pending commit once (one try at a time); what PostgreSQL could not answer is tried again later. */
  resolve(): Promise<void> {
    this.#resolving ??= this.#tryAll().finally(() => {
      this.#resolving = undefined;
      if (this.#pending.length > 0) this.#retryLater();
    });
    return this.#resolving;
  }

  /** A last try at what is pending, then no more timers. */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length > 0) await this.resolve();
    clearTimeout(this.#timer);
  }

  #retryLater(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.resolve();
    }, RETRY_MS);
  }

  async #tryAll(): Promise<void> {
    const pending = this.#pending;
    this.#pending = [];
    for (const commit of pending) {
      try {
        await inTransaction(this.pool, async (db) => {
          const runs = await claimOnce(db, commit.token);
          if (!runs) return;
          // Deleted with the refund: should this transaction's answer be lost too, the next try finds no
          // receipt, leaves a tombstone, and refunds nothing twice.
          await db.query("DELETE FROM charge_receipts WHERE token = $1", [commit.token]);
          await refund(db, commit.charges, commit.outcomes(runs));
        });
      } catch {
        this.#pending.push(commit);
      }
    }
  }
}

/**
 * Takes each charged charge off its quota and usage counters, and its proof with it: its request was
 * answered 503, so the same request must run (and be charged) again. A rare path: a statement each.
 */
async function refund(db: Queryable, charges: readonly Charge[], outcomes: readonly ChargeOutcome[]): Promise<void> {
  for (let i = 0; i < charges.length; i++) {
    if (!outcomes[i]!.charged) continue;
    const c = charges[i]!;
    await db.query("UPDATE quota_counters SET used = used - $3 WHERE account_id = $1 AND period_start = $2", [c.account_id, c.period_start, c.lookups]);
    await db.query(
      "UPDATE usage_counters SET requests = requests - 1, lookups = lookups - $4 WHERE account_id = $1 AND bucket_start = $2 AND key_id = $3",
      [c.account_id, c.bucket_start, c.key_id, c.lookups],
    );
    if (c.proof) await db.query("DELETE FROM idempotency_proofs WHERE key_hash = $1", [c.proof.key]);
  }
}
