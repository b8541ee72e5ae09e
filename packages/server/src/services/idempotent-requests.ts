import { sha256Hex } from "../auth/secrets.js";
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../domain/refusals.js";
import type { IdempotencyStore, IdempotentRequestId, StoredAnswer } from "../store/store.js";
import type { Clock } from "../time.js";

/** How long an answer is kept for replays. */
const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/**
 * How long a claim may stay pending before it counts as abandoned (its instance stopped while answering):
 * far longer than any request of these routes takes, so a live request is never run twice.
 */
const ABANDONED_CLAIM_MS = 5 * 60_000;
/** What a duplicate of a request in flight is told to wait, in whole seconds. */
const IN_FLIGHT_RETRY_SECONDS = 1;
/** Expired answers of every account are deleted at most this often per instance, by a request's claim. */
const SWEEP_INTERVAL_MS = 60_000;

/** The request a claim admitted: `keep` stores its answer for replays, `release` lets the same key run again. */
export interface ClaimedRequest {
  keep(answer: StoredAnswer): Promise<void>;
  release(): Promise<void>;
}

/** What to do with a request sent with an Idempotency-Key: run it (claimed), or answer what it was answered. */
export type IdempotencyDecision = { run: ClaimedRequest } | { replay: StoredAnswer };

/**
 * Idempotency keys: a request with an account's key on a route runs once within 24 hours; the same key
 * with the same body is answered what the first was, however many times and on whichever instance. The
 * same key with another body is refused (IdempotencyKeyReused), and while the first is still running, a
 * duplicate is too (IdempotencyKeyInUse). The body is compared by its SHA-256.
 */
export class IdempotentRequests {
  #lastSweep = 0;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  async begin(id: IdempotentRequestId, body: string): Promise<IdempotencyDecision> {
    const at = this.clock.now();
    const fingerprint = sha256Hex(body);
    this.#sweep(at);
    const found = await this.store.claimIdempotencyKey({
      id,
      fingerprint,
      at,
      expiredBefore: at - IDEMPOTENCY_WINDOW_MS,
      abandonedBefore: at - ABANDONED_CLAIM_MS,
    });
    if (found === "claimed") return { run: this.#claimed(id) };
    if (found.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
    if (!found.answer) throw new IdempotencyKeyInUse(IN_FLIGHT_RETRY_SECONDS);
    return { replay: found.answer };
  }

  #claimed(id: IdempotentRequestId): ClaimedRequest {
    return {
      keep: (answer) => this.store.keepIdempotentAnswer(id, answer),
      release: () => this.store.releaseIdempotencyKey(id),
    };
  }

  /** Deletes expired answers now and then, without holding up the request (a failure waits for the next). */
  #sweep(at: number): void {
    if (at - this.#lastSweep < SWEEP_INTERVAL_MS) return;
    this.#lastSweep = at;
    this.store.deleteIdempotentRequestsBefore(at - IDEMPOTENCY_WINDOW_MS).catch(() => undefined);
  }
}
