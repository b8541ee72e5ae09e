import type { RedisClient } from "../redis.js";
import type { RedisHealth } from "../redis-health.js";
import { MemoryClaims, type InFlightClaims } from "./idempotent-requests.js";

/**
 * How long a claim outlives an instance that stopped while answering: far longer than any request of these
 * routes takes, so a live request is never run twice.
 */
const ABANDONED_CLAIM_MS = 5 * 60_000;

/**
 * The claims of every instance, in Redis: one key per claim (`SET NX PX`, a single slot), its value the
 * claiming request's fingerprint. While Redis cannot be reached, each instance holds its own claims: a
 * duplicate on another instance then runs, and its charge finds the first one's proof (the proof's key is
 * unique in the store), so it is answered as a replay and charged nothing.
 */
export class RedisClaims implements InFlightClaims {
  readonly #local = new MemoryClaims();
  readonly #heldLocally = new Set<string>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly health?: Pick<RedisHealth, "failed" | "answered" | "mayTry">,
  ) {}

  async take(key: Buffer, fingerprint: Buffer): Promise<Buffer | undefined> {
    const name = this.#name(key);
    if (this.health && !this.health.mayTry()) return this.#takeLocally(name, key, fingerprint);
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const taken = (await this.redis.set(name, fingerprint, "PX", ABANDONED_CLAIM_MS, "NX")) === "OK";
        this.health?.answered();
        if (taken) return undefined;
        const holder = await this.redis.getBuffer(name);
        if (holder) return holder;
        // Released between the two calls: take it again.
      }
      return fingerprint;
    } catch (error) {
      this.health?.failed(error);
      return this.#takeLocally(name, key, fingerprint);
    }
  }

  #takeLocally(name: string, key: Buffer, fingerprint: Buffer): Buffer | undefined {
    this.#heldLocally.add(name);
    return this.#local.takeNow(key, fingerprint);
  }

  async release(key: Buffer): Promise<void> {
    const name = this.#name(key);
    if (this.#heldLocally.delete(name)) return this.#local.release(key);
    await this.redis.del(name).catch(() => undefined);
  }

  #name(key: Buffer): string {
    return `${this.prefix}:idem:${key.toString("base64url")}`;
  }
}
