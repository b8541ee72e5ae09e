import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { Limiter } from "./rate-limit.js";
import type { Counted, RedisIncrements } from "./redis-increments.js";
import type { RedisLeases } from "./redis-leases.js";

/** What every limiter on one Redis client shares: the client, its grouped increments and their leases. */
export interface SharedRedis {
  redis: Redis;
  increments: RedisIncrements;
  leases: RedisLeases;
}

/**
 * A budget of `points` per window of `durationSeconds` for each key, counted in Redis under
 * `keyPrefix:key`, so every instance spends the same budget. A consume adds its points through the
 * leases (redis-leases.ts) or else through the grouped script call (redis-increments.ts), and is refused
 * once the key's count passes the budget; refused points count, as they would alone.
 *
 * While Redis is not ready, or a command fails or times out, the same call is answered by an in-memory
 * limiter of this instance (the insurance limiter, keyed without the Redis prefix) instead of failing the
 * request. Nothing is sent to a client that is not ready, so a Redis known to be down costs nothing.
 */
export class RedisLimiter implements Limiter {
  readonly #insurance: RateLimiterMemory;

  constructor(
    private readonly shared: SharedRedis,
    private readonly points: number,
    private readonly durationSeconds: number,
    private readonly keyPrefix: string,
    insuranceKeyPrefix: string,
  ) {
    this.#insurance = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix: insuranceKeyPrefix });
  }

  /** Spends `points` of `key`'s budget; rejects with the RateLimiterRes it leaves when that is past the budget. */
  async consume(key: string, points = 1): Promise<RateLimiterRes> {
    let counted: Counted;
    try {
      this.#ready();
      counted = await this.shared.leases.take(this.#key(key), points, this.durationSeconds, this.points);
    } catch {
      return this.#insurance.consume(key, points);
    }
    const res = this.#res(counted, points);
    if (res.consumedPoints > this.points) throw res;
    return res;
  }

  /** Gives `points` back to `key`'s budget (never leased: a refund moves the Redis count itself). */
  async reward(key: string, points = 1): Promise<RateLimiterRes> {
    try {
      this.#ready();
      return this.#res(await this.shared.increments.add(this.#key(key), -points, this.durationSeconds), -points);
    } catch {
      return this.#insurance.reward(key, points);
    }
  }

  /** `key`'s state without spending anything; null when it has spent nothing in this window. */
  async get(key: string): Promise<RateLimiterRes | null> {
    let answers: Array<[error: Error | null, result: unknown]> | null;
    try {
      this.#ready();
      const rlKey = this.#key(key);
      answers = await this.shared.redis.multi().get(rlKey).pttl(rlKey).exec();
    } catch {
      return this.#insurance.get(key);
    }
    const [[countError, count] = [null, null], [ttlError, ttl] = [null, -1]] = answers ?? [];
    if (countError || ttlError) return this.#insurance.get(key);
    if (count === null) return null;
    return this.#res([Number(count), Number(ttl)], 0);
  }

  /** Forgets `key`'s count; true when there was one. */
  async delete(key: string): Promise<boolean> {
    try {
      this.#ready();
      return (await this.shared.redis.del(this.#key(key))) > 0;
    } catch {
      return this.#insurance.delete(key);
    }
  }

  #ready(): void {
    if (this.shared.redis.status !== "ready") throw new Error("Redis connection is not ready");
  }

  #key(key: string): string {
    return `${this.keyPrefix}:${key}`;
  }

  #res([consumed, msBeforeNext]: Counted, changed: number): RateLimiterRes {
    return new RateLimiterRes(Math.max(this.points - consumed, 0), msBeforeNext, consumed, consumed === changed);
  }
}
