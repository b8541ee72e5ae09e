import type { KeyGrant } from "../store.js";

/**
 * Key grants read from one SQLite file, kept until anything they depend on may have changed: this
 * process's own changes call `clear()`/`forgetKey()`, and `PRAGMA data_version` (which moves when another
 * connection — an operator command, say — commits) clears the lot. So a revoked key or a cancelled
 * subscription is refused on the very next request, and an unchanged key costs no query.
 */
export class GrantCache {
  readonly #byHash = new Map<string, KeyGrant>();
  #version: number;

  constructor(
    private readonly dataVersion: () => number,
    private readonly maxEntries = 10_000,
  ) {
    this.#version = dataVersion();
  }

  get(hash: string): KeyGrant | undefined {
    const version = this.dataVersion();
    if (version !== this.#version) {
      this.#version = version;
      this.#byHash.clear();
      return undefined;
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
