import { Cluster, Redis } from "ioredis";

// The server's Redis connection, which the rate limits (limits/redis-limiters.ts) and the idempotency
// claims (services/redis-claims.ts) share: one Redis, or a Redis Cluster; how it is made and when it is
// ready. Whether it answers is redis-health.ts's, what it is at start redis-checks.ts's.

/** One Redis, or a Redis Cluster: the same commands, each on its key's one slot. */
export type RedisClient = Redis | Cluster;

/** Where the server's Redis is: one URL, or a cluster's seed nodes (any one that answers is enough). */
export interface RedisTarget {
  urls: readonly string[];
  cluster: boolean;
}

/**
 * A command waits at most 1 s (`commandTimeout`), and a connection silent that long while a command waits
 * is dropped (`socketTimeout`), so a stalled Redis costs a request at most that, once. The commands of one
 * turn of the event loop (every request read in it: its rate limit, its claim) go out in one write
 * (`enableAutoPipelining`). Nothing is queued while disconnected (`enableOfflineQueue`), so the limiters'
 * fallback answers at once.
 */
const FAIL_FAST = {
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  socketTimeout: 1_000,
  commandTimeout: 1_000,
} as const;

const reconnect = (attempt: number) => Math.min(attempt * 200, 2_000);

/** A client that fails fast while Redis is down or silent and reconnects by itself. */
export function connectRedis(url: string): Redis;
export function connectRedis(target: RedisTarget): RedisClient;
export function connectRedis(target: RedisTarget | string): RedisClient {
  const { urls, cluster } = typeof target === "string" ? { urls: [target], cluster: false } : target;
  if (!cluster) return new Redis(urls[0]!, { ...FAIL_FAST, enableOfflineQueue: false, enableAutoPipelining: true, retryStrategy: reconnect });
  const seed = new URL(urls[0]!);
  return new Cluster([...urls], {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    clusterRetryStrategy: reconnect,
    // A command the cluster refuses as down (CLUSTERDOWN: a master lost or silent, no replica taken over) or
    // whose connection closed under it (a node silent past the socket timeout) is not sent again, and the
    // limiters' fallback answers at once: each retry would refresh the slots and could wait on the silent
    // node anew (a stopped node's port still accepts connections), up to seconds in all.
    retryDelayOnClusterDown: 0,
    retryDelayOnFailover: 0,
    maxRedirections: 4,
    // Every node the cluster names is reached with the seed's credentials and TLS.
    redisOptions: {
      ...FAIL_FAST,
      ...(seed.username ? { username: decodeURIComponent(seed.username) } : {}),
      ...(seed.password ? { password: decodeURIComponent(seed.password) } : {}),
      ...(seed.protocol === "rediss:" ? { tls: {} } : {}),
    },
  });
}

/** Resolves when the client is ready, or false after `timeoutMs` (the limiters' fallback covers until then). */
export function redisReady(redis: RedisClient, timeoutMs = 3_000): Promise<boolean> {
  if (redis.status === "ready") return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
