/**
 * The requests with an Idempotency-Key being answered right now, by their hashed key (Proof.key): the first
 * takes the key and holds it until it ends; a duplicate meanwhile learns the body of the one holding it.
 */
export interface InFlightClaims {
  /** Takes `key` for a request with `fingerprint`: undefined when taken, else the fingerprint of the request holding it. */
  take(key: Buffer, fingerprint: Buffer): Promise<Buffer | undefined>;
  release(key: Buffer): Promise<void>;
}

/**
 * The claims of one process, in memory: enough wherever one process answers for the store (SQLite, whose
 * file one server holds: store/sqlite/server-lock.ts). A claim ends with its process.
 */
export class MemoryClaims implements InFlightClaims {
  readonly #held = new Map<string, Buffer>();

  async take(key: Buffer, fingerprint: Buffer): Promise<Buffer | undefined> {
    return this.takeNow(key, fingerprint);
  }

  takeNow(key: Buffer, fingerprint: Buffer): Buffer | undefined {
    const name = key.toString("latin1");
    const holder = this.#held.get(name);
    if (holder) return holder;
    this.#held.set(name, fingerprint);
    return undefined;
  }

  async release(key: Buffer): Promise<void> {
    this.#held.delete(key.toString("latin1"));
  }
}
