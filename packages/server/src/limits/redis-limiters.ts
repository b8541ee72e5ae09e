import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RedisClient } from "../redis.js";
import type { RedisHealth } from "../redis-health.js";
import type { Limiter, LimiterFactory } from "./rate-limit.js";

/**
 * Counters in Redis, shared by every instance, so limits and the RateLimit fields are exact across them:
 * rate-limiter-flexible's RateLimiterRedis, one atomic script call on one key per call. While Redis is not
 * ready (nothing is sent then) or a command fails, the instance's own RateLimiterMemory answers instead,
 * and `health` is told: the library's own fallback (insuranceLimiter) would hide the failure, and with it
 * a Redis that fails every command while its connection is up (MOVED, CLUSTERDOWN). A key is
 * `<namespace>:<limit>:{<key>}`: the namespace is the operator's --redis-prefix, so programs sharing one
 * Redis never touch each other's keys; the braces are a hash tag, so on a Redis Cluster every command of a
 * call goes to its key's one slot.
 */
export function redisLimiters(redis: RedisClient, namespace = "iccid", health?: Pick<RedisHealth, "failed" | "answered" | "mayTry">): LimiterFactory {
  return (points, duration, keyPrefix) => {
    const memory = new RateLimiterMemory({ points, duration, keyPrefix });
    const shared = new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix: `${namespace}:${keyPrefix}`, rejectIfRedisNotReady: true });
    /** The call in Redis, or, when Redis does not run it, the same call in memory. */
    const either = async <T>(inRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> => {
      if (health && !health.mayTry()) return inMemory();
      try {
        const result = await inRedis();
        health?.answered();
        return result;
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) {
          health?.answered();
          throw outcome; // over the limit: Redis answered
        }
        health?.failed(outcome);
        return inMemory();
      }
    };
    const limiter: Limiter = {
      consume: (key, points) => either(() => shared.consume(`{${key}}`, points), () => memory.consume(key, points)),
      reward: (key, points) => either(() => shared.reward(`{${key}}`, points), () => memory.reward(key, points)),
      get: (key) => either(() => shared.get(`{${key}}`), () => memory.get(key)),
      delete: (key) => either(() => shared.delete(`{${key}}`), () => memory.delete(key)),
    };
    return limiter;
  };
}
