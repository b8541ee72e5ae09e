import type { KeyGrant } from "./store.js";

export interface GrantCacheOptions {
  /**
   * Asked on a read at most every `recheckMs`: whether another process may have changed what grants depend
   * on since the last ask (SQLite: `PRAGMA data_version` moved). True drops every grant.
   */
  changedElsewhere?: () => boolean;
  recheckMs?: number;
  /** A grant older than this is read again: the bound on seeing a change no notice reached us about. */
  maxAgeMs?: number;
  maxEntries?: number;
  /** Milliseconds on a monotonic clock (tests pass their own). */
  now?: () => number;
}

/**
 * Key grants (key, account, subscription, plan: everything the Bearer pipeline needs) kept between
 * requests, because reading one is the largest store cost of a lookup. The store's own changes call
 * `clear()`/`forgetKey()` once written, so they apply to the very next request; changes made elsewhere are
 * seen through `changedElsewhere` (SQLite) or a notice that calls `clear()` (PostgreSQL's LISTEN/NOTIFY),
 * and `maxAgeMs` bounds the rest.
 *
 * A read that was under way while a change was seen must not put the old grant back: `set` takes the
 * generation the read started in and keeps the grant only if nothing was dropped since.
 */
export class GrantCache {
  readonly #byHash = new Map<string, { grant: KeyGrant; readAt: number }>();
  #generation = 0;
  #checkedAt = 0;
  #enabled = true;
  readonly #changedElsewhere: (() => boolean) | undefined;
  readonly #recheckMs: number;
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: GrantCacheOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#changedElsewhere = options.changedElsewhere;
    this.#recheckMs = options.recheckMs ?? 100;
    this.#maxAgeMs = options.maxAgeMs ?? Infinity;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** The generation a read starts in, to hand to `set` when it is done. */
  get generation(): number {
    return this.#generation;
  }

  get(hash: string): KeyGrant | undefined {
    if (!this.#enabled) return undefined;
    const now = this.#now();
    if (this.#changedElsewhere && now - this.#checkedAt >= this.#recheckMs) {
      this.#checkedAt = now;
      if (this.#changedElsewhere()) {
        this.clear();
        return undefined;
      }
    }
    const entry = this.#byHash.get(hash);
    if (!entry || now - entry.readAt > this.#maxAgeMs) return undefined;
    return entry.grant;
  }

  set(hash: string, grant: KeyGrant, generation: number): void {
    if (!this.#enabled || generation !== this.#generation) return;
    if (this.#byHash.size >= this.#maxEntries) this.#byHash.clear();
    this.#byHash.set(hash, { grant, readAt: this.#now() });
  }

  /** Drops the grant of one key (its row changed). */
  forgetKey(keyId: string): void {
    this.#generation++;
    for (const [hash, entry] of this.#byHash) {
      if (entry.grant.key.id === keyId) this.#byHash.delete(hash);
    }
  }

  clear(): void {
    this.#generation++;
    this.#byHash.clear();
  }

  /**
   * Off while changes made elsewhere cannot be heard of (the notice channel is down): nothing is kept or
   * answered from the cache until it is on again, and turning it on starts empty.
   */
  set enabled(enabled: boolean) {
    if (enabled !== this.#enabled) this.clear();
    this.#enabled = enabled;
  }
}
