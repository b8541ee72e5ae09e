import type { StoreLifecycle } from "../store/store.js";
import type { Clock } from "../time.js";

/**
 * Whether this instance should be sent traffic: the store takes a write now. However often it is asked
 * (the endpoint needs no credentials), at most one probe runs at a time and a result is reused for
 * `maxAgeMs`, so asking cannot load the store.
 */
export class Readiness {
  #probe: { at: number; settled: boolean; result: Promise<void> } | undefined;

  constructor(
    private readonly store: StoreLifecycle,
    private readonly clock: Clock,
    private readonly maxAgeMs = 1_000,
  ) {}

  /** Resolves when ready; rejects with the store's error when not. */
  check(): Promise<void> {
    // Monotonic time for the reuse (an injected clock may stand still); the clock's time is what is written.
    const now = performance.now();
    const last = this.#probe;
    if (last && (!last.settled || now - last.at < this.maxAgeMs)) return last.result;
    const probe = { at: now, settled: false, result: this.store.checkWritable(this.clock.now()) };
    probe.result.then(
      () => (probe.settled = true),
      () => (probe.settled = true),
    );
    this.#probe = probe;
    return probe.result;
  }
}
