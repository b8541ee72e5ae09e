import type { Redis } from "ioredis";
import type { Logger } from "pino";

/**
 * Whether the rate limits' Redis answers, as the client sees it: ready, or not (refused, unreachable, or
 * connected but silent past the socket timeout, which drops the connection). While it does not, the
 * limiters answer from each instance's memory (redis-limiters.ts) and readiness says so. The change each
 * way is logged once, not every reconnect attempt; a Redis that answers from the start is not mentioned
 * (the server's "listening" line names it), one that does not is logged as an outage, from its first failure.
 */
export class RedisHealth {
  /** Whether Redis answers, as last seen: undefined until it first answers or first fails. */
  #answering: boolean | undefined;
  #lastError: string | undefined;

  constructor(
    private readonly redis: Redis,
    logger?: Logger,
  ) {
    this.#answering = redis.status === "ready" ? true : undefined;
    redis.on("error", (error: Error) => (this.#lastError = error.message));
    // "reconnecting", not "close": a connection closed on purpose (quit at shutdown) is not a fault.
    redis.on("reconnecting", () => {
      if (this.#answering === false) return;
      this.#answering = false;
      logger?.warn({ reason: this.#lastError ?? "connection closed" }, "redis not answering: rate limits are per instance until it answers");
    });
    redis.on("ready", () => {
      const was = this.#answering;
      this.#answering = true;
      this.#lastError = undefined;
      if (was === false) logger?.info("redis answering: rate limits are shared again");
    });
  }

  get answering(): boolean {
    return this.#answering === true && this.redis.status === "ready";
  }
}
