import { Redis } from "ioredis";
import type { RedisTarget } from "./redis.js";

/** A Redis setting the server cannot work with: the reason, for the operator, and the server does not start. */
export class RedisMisconfigured extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RedisMisconfigured";
  }
}

/** What the start learned of the server's Redis. */
export type RedisAtStart =
  /** It answered; `persistent` says whether it keeps an append-only file (counts survive its restart). */
  | { answering: true; persistent: boolean }
  /** None of its URLs answered: an outage, which the server starts through (the limits are per instance until it answers). */
  | { answering: false; reason: string };

/** Answers that are the setting's fault, not an outage's: refused credentials, or something that is not Redis. */
const REFUSED = /^(WRONGPASS|NOAUTH|NOPERM)\b/;

/**
 * Asks each URL in turn, on a connection of its own that tries once, what it is: credentials it refuses,
 * an answer that is not Redis's, or a Redis Cluster node where one Redis was named (or the other way
 * round) are RedisMisconfigured; a URL that cannot be reached is tried past. The first that answers says
 * whether it keeps an append-only file.
 */
export async function checkRedis(target: RedisTarget, timeoutMs = 3_000): Promise<RedisAtStart> {
  let reason = "no URL";
  for (const url of target.urls) {
    const probe = probeOf(url, timeoutMs);
    let lastError: (Error & { code?: string }) | undefined;
    probe.on("error", (error: Error) => (lastError = error));
    try {
      if (await asksNoPassword(url, timeoutMs)) {
        throw new RedisMisconfigured(`the Redis at ${url} asks for no password, but --redis gives one: set one on Redis (requirepass) or leave it out of --redis`);
      }
      await probe.connect();
      const info = await probe.info();
      const clusterNode = /^cluster_enabled:1\b/m.test(info);
      if (clusterNode && !target.cluster) throw new RedisMisconfigured("--redis names a Redis Cluster node: start with --redis-cluster (and the cluster's nodes in --redis)");
      if (!clusterNode && target.cluster) throw new RedisMisconfigured("--redis-cluster was given, but --redis names a Redis without cluster support: leave out --redis-cluster");
      return { answering: true, persistent: /^aof_enabled:1\b/m.test(info) };
    } catch (error) {
      if (error instanceof RedisMisconfigured) throw error;
      const failure = (lastError ?? error) as Error;
      if (REFUSED.test(failure.message)) throw new RedisMisconfigured(`the Redis at ${url} refused the credentials: ${failure.message}`);
      if (failure.name === "ParserError") throw new RedisMisconfigured(`${url} does not answer as Redis does: is it Redis?`);
      reason = failure.message;
    } finally {
      probe.disconnect();
    }
  }
  return { answering: false, reason };
}

/**
 * A connection of the start's own to `url` that tries once. Its commands wait for the ready check (the
 * offline queue), so a peer that answers something other than Redis fails them with the parser's error
 * rather than racing the connection's close.
 */
function probeOf(url: string, timeoutMs: number): Redis {
  return new Redis(url, { lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs, commandTimeout: timeoutMs });
}

/**
 * Whether `url` gives the default user a password that its Redis does not ask for: the operator believes
 * Redis protected while anyone may use it. Asked without the password, which such a Redis answers (a
 * Redis that asks for it answers NOAUTH); the client would otherwise only print a warning of its own.
 */
async function asksNoPassword(url: string, timeoutMs: number): Promise<boolean> {
  const parsed = new URL(url);
  if (parsed.password === "" || (parsed.username !== "" && parsed.username !== "default")) return false;
  parsed.username = "";
  parsed.password = "";
  const bare = probeOf(parsed.toString(), timeoutMs);
  bare.on("error", () => undefined);
  try {
    await bare.connect();
    await bare.ping();
    return true;
  } catch {
    return false; // NOAUTH, or unreachable: the probe with the password says which
  } finally {
    bare.disconnect();
  }
}
