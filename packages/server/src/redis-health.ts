import type { Logger } from "pino";
import type { RedisClient } from "./redis.js";

/** How often a command is still sent while Redis fails them: the rest are answered from memory at once. */
const PROBE_EVERY_MS = 1_000;

/** The answers by which a Redis Cluster redirects or refuses a command that a single Redis would run. */
const CLUSTER_ANSWER = /^(MOVED|ASK|CROSSSLOT|CLUSTERDOWN)\b/;

/**
 * Whether the server's Redis answers: the client is ready (not refused, unreachable, or silent past the
 * socket timeout, which drops the connection), and its last command did not fail. A ready client can fail
 * every command (a cluster node told it is a single Redis answers MOVED; a cluster without a master
 * answers CLUSTERDOWN), so the limiters and claims report each outcome here; a failure lasts until a
 * command is run or the client connects anew. While it does not answer,
 * they answer from this instance's memory and readiness says so. The change each way is logged once, not
 * every reconnect attempt or command; a Redis that answers from the start is not mentioned (the server's
 * "listening" line names it), one that does not is logged as an outage, from its first failure. "Shared
 * again" is said only of a recovery: a Redis that answers for the first time after an outage since the
 * start never shared the limits before.
 */
export class RedisHealth {
  #logged = false;
  /** Redis answered once since the start: the limits were shared, and an outage's end shares them again. */
  #sharedBefore = false;
  #failing = false;
  /** A cluster's answer to a client that took it for one Redis: it lasts until the client connects anew. */
  #misrouted = false;
  #lastError: string | undefined;
  #probedAt = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly logger?: Logger,
    private readonly cluster = false,
  ) {
    this.#sharedBefore = redis.status === "ready";
    redis.on("error", (error: Error) => (this.#lastError = error.message));
    // "reconnecting", not "close": a connection closed on purpose (quit at shutdown) is not a fault.
    redis.on("reconnecting", () => this.#down(this.#lastError ?? "connection closed"));
    // A connection made anew starts with a clean slate: whatever failed is seen again by the next command.
    redis.on("ready", () => {
      this.#lastError = undefined;
      this.#misrouted = false;
      this.#failing = false;
      this.#up();
    });
  }

  get answering(): boolean {
    return this.redis.status === "ready" && !this.#failing && !this.#misrouted;
  }

  /**
   * Whether to send a command now: always while Redis answers; while it fails commands, one a second,
   * which finds it answering again, and the others go to memory at once. A silent cluster node keeps its
   * connection, so without this every request would wait out the command timeout on it.
   */
  mayTry(): boolean {
    if (this.answering) return true;
    const now = performance.now();
    if (now - this.#probedAt < PROBE_EVERY_MS) return false;
    this.#probedAt = now;
    return true;
  }

  /** A command failed: Redis did not run it (a limit's refusal is an answer, not a failure). */
  failed(error: unknown): void {
    const message = String((error as Error)?.message ?? error);
    // The keys of the node's own slots still run there: the node's answers for them say nothing of the others'.
    if (!this.cluster && CLUSTER_ANSWER.test(message)) {
      this.#misrouted = true;
      return this.#down(`${message} (a Redis Cluster answers so: start with --redis-cluster)`);
    }
    this.#failing = true;
    this.#down(message);
  }

  /** A command was run. */
  answered(): void {
    if (!this.#failing) return;
    this.#failing = false;
    if (this.redis.status === "ready" && !this.#misrouted) this.#up();
  }

  #down(reason: string): void {
    if (this.#logged) return;
    this.#logged = true;
    this.logger?.warn({ reason }, "redis not answering: rate limits are per instance until it answers");
  }

  #up(): void {
    if (this.#logged) this.logger?.info(this.#sharedBefore ? "redis answering: rate limits are shared again" : "redis answering: rate limits are shared from now on");
    this.#logged = false;
    this.#sharedBefore = true;
  }
}
