import { ChargesStalled, DatabaseFileGone } from "../store/errors.js";
import type { StoreLifecycle } from "../store/store.js";
import type { Clock } from "../time.js";

/** What else this instance depends on for its answers: the rate limits' Redis, when there is one. */
export interface SharedLimits {
  readonly answering: boolean;
}

/**
 * Why this instance should not be sent traffic, in words for whoever reads the readiness answer (which
 * needs no credentials: nothing here names a path, a host or a URL).
 */
export class NotReady extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NotReady";
  }
}

/** Ready, and whether something it depends on is missing without stopping it from answering. */
export type ReadyState = { status: "ok" } | { status: "degraded"; detail: string };

/**
 * Whether this instance should be sent traffic: the store takes a write now, commits charges within the
 * query timeout (a lock on the counters stalls lookups while other writes go through), and its database
 * file is still the one it opened. A silent Redis does not make it unready: every instance answers from its own
 * limits meanwhile, and taking them all out of a load balancer at once would stop the service, so the
 * state says `degraded` instead. However often it is asked (the endpoint needs no credentials), at most
 * one probe runs at a time and a result is reused for `maxAgeMs`, so asking cannot load the store.
 */
export class Readiness {
  #probe: { at: number; settled: boolean; result: Promise<ReadyState> } | undefined;

  constructor(
    private readonly store: StoreLifecycle,
    private readonly clock: Clock,
    private readonly maxAgeMs = 1_000,
    private readonly limits?: SharedLimits,
  ) {}

  /** Resolves when ready, saying whether degraded; rejects with NotReady saying why when not. */
  check(): Promise<ReadyState> {
    // Monotonic time for the reuse (an injected clock may stand still); the clock's time is what is written.
    const now = performance.now();
    const last = this.#probe;
    if (last && (!last.settled || now - last.at < this.maxAgeMs)) return last.result;
    const probe = { at: now, settled: false, result: this.#probeOnce() };
    probe.result.then(
      () => (probe.settled = true),
      () => (probe.settled = true),
    );
    this.#probe = probe;
    return probe.result;
  }

  async #probeOnce(): Promise<ReadyState> {
    try {
      await this.store.checkWritable(this.clock.now());
    } catch (error) {
      if (error instanceof DatabaseFileGone) throw new NotReady("The database file was deleted or replaced while the server ran.", { cause: error });
      if (error instanceof ChargesStalled) throw new NotReady("Lookups cannot be charged now: the store does not commit their charges within the query timeout.", { cause: error });
      throw new NotReady("The store cannot take a write now.", { cause: error });
    }
    if (this.limits && !this.limits.answering) return { status: "degraded", detail: "Redis is not answering: rate limits are per instance until it does." };
    return { status: "ok" };
  }
}
