import type { Cluster, Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";
import type { Limiter, LimiterFactory } from "./rate-limit.js";

/**
 * Counters in Redis, shared by every instance, so limits and the RateLimit fields are exact across them:
 * rate-limiter-flexible's RateLimiterRedis, one atomic script call on one key per call. While Redis is not
 * ready (nothing is sent then) or a command fails, the instance's own RateLimiterMemory answers instead
 * (the insurance limiter). A key is `<namespace>:<limit>:{<key>}`: the namespace is the operator's
 * --redis-prefix, so programs sharing one Redis never touch each other's keys; the braces are a hash tag,
 * so on a Redis Cluster every command of a call goes to its key's one slot.
 */
export function redisLimiters(redis: Redis | Cluster, namespace = "iccid"): LimiterFactory {
  return (points, duration, keyPrefix) => {
    const insuranceLimiter = new RateLimiterMemory({ points, duration, keyPrefix });
    const options = { storeClient: redis, points, duration, keyPrefix: `${namespace}:${keyPrefix}`, insuranceLimiter };
    const limiter: Limiter = new RateLimiterRedis({ ...options, rejectIfRedisNotReady: true });
    return {
      consume: (key, points) => limiter.consume(`{${key}}`, points),
      reward: (key, points) => limiter.reward(`{${key}}`, points),
      get: (key) => limiter.get(`{${key}}`),
      delete: (key) => limiter.delete(`{${key}}`),
    };
  };
}
