import { RateLimiterRedis } from "rate-limiter-flexible";
import type { Counted } from "./redis-increments.js";
import type { RedisLeases } from "./redis-leases.js";

type Upsert = (rlKey: string, points: number, msDuration: number, forceExpire?: boolean) => Promise<unknown>;
type RedisOptions = ConstructorParameters<typeof RateLimiterRedis>[0];

/**
 * rate-limiter-flexible's Redis limiter with its one store write, `_upsert` (the extension point its store
 * limiters are built on), sent through `leases`: points leased from Redis earlier, or else one Redis
 * command shared by the requests of one grouping window. Everything else is the library's: refusals, the RateLimit state, and the insurance limiter
 * taking over when Redis fails or is not ready.
 */
export class BatchedRedisLimiter extends RateLimiterRedis {
  constructor(
    options: RedisOptions,
    private readonly leases: RedisLeases,
  ) {
    super(options);
  }

  _upsert(rlKey: string, points: number, msDuration: number, forceExpire = false): Promise<Counted | unknown> {
    const ttlSeconds = Math.floor(msDuration / 1000);
    // Setting a count outright, a window without end, or points the library refuses: the library's own way.
    if (forceExpire || ttlSeconds <= 0 || !Number.isInteger(points)) return this.#upsertAlone(rlKey, points, msDuration, forceExpire);
    if (!this.#redisReady(rlKey)) return Promise.reject(new Error("Redis connection is not ready"));
    return this.leases.take(rlKey, points, ttlSeconds, this.points);
  }

  #upsertAlone(...args: Parameters<Upsert>): Promise<unknown> {
    return (RateLimiterRedis.prototype as unknown as { _upsert: Upsert })._upsert.apply(this, args);
  }

  #redisReady(rlKey: string): boolean {
    return (this as unknown as { _isRedisReady(rlKey: string, readonly: boolean): boolean })._isRedisReady(rlKey, false);
  }
}
