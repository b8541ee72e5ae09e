import { Redis } from "ioredis";
import type { Logger } from "pino";

// The server's Redis connection, which the rate limits (limits/redis-limiters.ts) and the idempotency
// claims (services/redis-claims.ts) share: how it is made, when it is ready, and whether it answers.

/**
 * A client that fails fast while Redis is down or silent (so the insurance limiters answer) and reconnects
 * by itself: a command waits at most 1 s (`commandTimeout`), and a connection silent that long while a
 * command waits is dropped (`socketTimeout`), so a stalled Redis costs a request at most that, once. The
 * commands of one turn of the event loop (every request read in it: its rate limit, its claim) go out in
 * one write (`enableAutoPipelining`).
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    socketTimeout: 1_000,
    commandTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
}

/** Resolves when the client is ready, or false after `timeoutMs` (the insurance limiters cover until then). */
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

/**
 * Whether the rate limits' Redis answers, as the client sees it: ready, or not (refused, unreachable, or
 * connected but silent past the socket timeout, which drops the connection). While it does not, the
 * limiters answer from each instance's memory and readiness says so. The change each way is logged once,
 * not every reconnect attempt; a Redis that answers from the start is not mentioned (the server's
 * "listening" line names it), one that does not is logged as an outage, from its first failure.
 */
export class RedisHealth {
  constructor(
    private readonly redis: Redis,
    logger?: Logger,
  ) {
    let down = false;
    let lastError: string | undefined;
    redis.on("error", (error: Error) => (lastError = error.message));
    // "reconnecting", not "close": a connection closed on purpose (quit at shutdown) is not a fault.
    redis.on("reconnecting", () => {
      if (down) return;
      down = true;
      logger?.warn({ reason: lastError ?? "connection closed" }, "redis not answering: rate limits are per instance until it answers");
    });
    redis.on("ready", () => {
      lastError = undefined;
      if (down) logger?.info("redis answering: rate limits are shared again");
      down = false;
    });
  }

  get answering(): boolean {
    return this.redis.status === "ready";
  }
}
