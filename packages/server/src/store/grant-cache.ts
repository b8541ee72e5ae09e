import type { KeyGrant } from "../store.js";

/**
 * Key grants read from one SQLite file, kept until anything they depend on may have changed. This
 * process's own changes (revoking a key through the API, say) call `clear()`/`forgetKey()`, so they are
 * refused on the very next request. Another process's commits (an operator command changing a
 * subscription or a plan) move `PRAGMA data_version`, which is read at most every `recheckMs`: that query
 * was the largest single cost of a lookup, so such changes are seen within that time instead.
 */
export class GrantCache {
  readonly #byHash = new Map<string, KeyGrant>();
  #version: number;
  #checkedAt = 0;

  constructor(
    private readonly dataVersion: () => number,
    private readonly recheckMs = 100,
    private readonly maxEntries = 10_000,
  ) {
    this.#version = dataVersion();
  }

  get(hash: string): KeyGrant | undefined {
    const now = performance.now();
    if (now - this.#checkedAt >= this.recheckMs) {
      this.#checkedAt = now;
      const version = this.dataVersion();
      if (version !== this.#version) {
        this.#version = version;
        this.#byHash.clear();
        return undefined;
      }
    }
    return this.#byHash.get(hash);
  }

  set(hash: string, grant: KeyGrant): void {
    if (this.#byHash.size >= this.maxEntries) this.#byHash.clear();
    this.#byHash.set(hash, grant);
  }

  /** Drops the grant of one key (its row changed). */
  forgetKey(keyId: string): void {
    for (const [hash, grant] of this.#byHash) {
      if (grant.key.id === keyId) this.#byHash.delete(hash);
    }
  }

  clear(): void {
    this.#byHash.clear();
  }
}
