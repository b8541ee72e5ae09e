import type { UnknownPrefixCount, UnknownPrefixStore } from "../store/store.js";
import { floorDay, type Clock } from "../time.js";

/** How many digits of an ICCID are kept: 89, the country and the issuer digits; never the account's. */
const UNKNOWN_PREFIX_DIGITS = 7;

/**
 * Counts the lookups whose issuer no source names, by the first seven digits of the normalised ICCID and
 * the UTC day, so that an operator sees which prefixes to add (`iccid-server issuers unknown`). Counting is
 * a Map update on the lookup path; the counts go to the store in one transaction at most every `flushMs`
 * and when the server stops. Counts not yet written when a flush fails are kept for the next one.
 */
export class UnknownPrefixes {
  #pending = new Map<string, UnknownPrefixCount>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: UnknownPrefixStore,
    private readonly clock: Clock,
    private readonly flushMs: number,
    private readonly counted?: () => void,
  ) {}

  /** Counts one lookup of `iccid` (normalised) that named no issuer. */
  note(iccid: string): void {
    const at = this.clock.now();
    const prefix = iccid.slice(0, UNKNOWN_PREFIX_DIGITS);
    const day = floorDay(at);
    const key = `${day} ${prefix}`;
    const count = this.#pending.get(key);
    if (count) {
      count.count++;
      count.last_seen = at;
    } else {
      this.#pending.set(key, { day, prefix, count: 1, first_seen: at, last_seen: at });
    }
    this.counted?.();
  }

  /** Starts writing the counts every `flushMs`. */
  start(): void {
    this.#timer ??= setInterval(() => void this.flush().catch(() => undefined), this.flushMs);
    this.#timer.unref();
  }

  /** Writes what was counted since the last flush; one flush at a time. */
  flush(): Promise<void> {
    // After the one before, whether it failed or not (its counts are back in #pending if it failed).
    this.#flushing = this.#flushing.catch(() => undefined).then(async () => {
      if (this.#pending.size === 0) return;
      const counts = this.#pending;
      this.#pending = new Map();
      try {
        await this.store.addUnknownPrefixes([...counts.values()]);
      } catch (error) {
        for (const [key, count] of counts) this.#merge(key, count);
        throw error;
      }
    });
    return this.#flushing;
  }

  /** Stops the timer and writes what is left (before the store closes). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** Puts back counts a failed flush did not write, beside those counted meanwhile. */
  #merge(key: string, count: UnknownPrefixCount): void {
    const now = this.#pending.get(key);
    if (!now) {
      this.#pending.set(key, count);
      return;
    }
    now.count += count.count;
    now.first_seen = Math.min(now.first_seen, count.first_seen);
    now.last_seen = Math.max(now.last_seen, count.last_seen);
  }
}
