import { Redis } from "ioredis";
import type { LimiterFactory } from "./rate-limit.js";
import { RedisIncrements } from "./redis-increments.js";
import { RedisLeases } from "./redis-leases.js";
import { RedisLimiter } from "./redis-limiter.js";

/**
 * Counters in Redis, shared by every instance, so a plan's limit holds across all of them and the
 * RateLimit fields agree whichever instance answers. If Redis cannot be reached, each instance falls back
 * to its own in-memory limiter (the insurance limiter) rather than failing requests. The counters moved in
 * one grouping window (store/group-commit/grouping-window.ts), by every limiter made here, go to Redis as
 * one script call (redis-increments.ts); a limit of 1,000 or more is served from points leased from Redis
 * ahead of the requests (redis-leases.ts, which states the bounds that come with it). Every key starts with
 * `namespace:` (the operator's --redis-prefix), so programs sharing one Redis never touch each other's keys.
 */
export function redisLimiters(redis: Redis, namespace = "iccid"): LimiterFactory {
  const increments = new RedisIncrements(redis);
  const shared = { redis, increments, leases: new RedisLeases(increments) };
  return (points, duration, keyPrefix) => new RedisLimiter(shared, points, duration, `${namespace}:${keyPrefix}`, keyPrefix);
}

/**
 * How long Redis may stay silent while a command waits before the connection is dropped and the in-memory
 * limiters answer: a stopped or unreachable Redis costs a request at most this, never the whole stall.
 */
export const REDIS_SILENCE_MS = 1_000;

/**
 * A client that fails fast while Redis is down or silent (so the insurance limiter answers) and
 * reconnects by itself. A connection that gets no data for REDIS_SILENCE_MS while a command waits is
 * dropped (`socketTimeout`): until a new one is ready, every limiter answers from memory at once. Each
 * command also gives up after that long (`commandTimeout`). No auto-pipelining: the rate limits already
 * send one command per grouping window, which the pipeline would only hold back another turn and wrap.
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    socketTimeout: REDIS_SILENCE_MS,
    commandTimeout: REDIS_SILENCE_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
}

/** Resolves when the client is ready, or false after `timeoutMs` (the insurance limiter covers until then). */
export function redisReady(redis: Redis, timeoutMs = 3_000): Promise<boolean> {
  if (redis.status === "ready") return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
