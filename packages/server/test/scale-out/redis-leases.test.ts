import { RateLimiterRes } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { redisLimiters } from "../../src/limits/redis-limiters.js";
import { useTestRedis } from "./test-redis.js";

// Limits of 1,000 and more are served from points leased from Redis (redis-leases.ts): every point handed
// out was counted in Redis first, within its window; the bounds are the lease sizes.

const t = useTestRedis();

/** `rounds` bursts of `burst` consumes on `limiter`: remaining points when admitted, "refused" when not. */
async function bursts(limiter: ReturnType<ReturnType<typeof redisLimiters>>, key: string, rounds: number, burst: number) {
  const outcomes: Array<number | "refused"> = [];
  for (let r = 0; r < rounds; r++) {
    const settled = await Promise.allSettled(Array.from({ length: burst }, () => limiter.consume(key)));
    for (const s of settled) {
      if (s.status === "fulfilled") outcomes.push(s.value.remainingPoints);
      else {
        expect(s.reason).toBeInstanceOf(RateLimiterRes);
        outcomes.push("refused");
      }
    }
  }
  return outcomes;
}

describe("rate-limit points leased from Redis", () => {
  it("on one instance: each request told the count it would have had alone, in far fewer Redis calls", async () => {
    const limiter = redisLimiters(t.redis, t.namespace)(100_000, 60, "one");
    const before = await t.evalshaCalls();
    const outcomes = await bursts(limiter, "a", 100, 10);
    expect(outcomes).toEqual(Array.from({ length: 1000 }, (_, i) => 100_000 - 1 - i));
    expect((await t.evalshaCalls()) - before).toBeLessThan(40); // other tests may share this Redis
    // Counted in Redis before being handed out: the count covers every request, and at most a lease more.
    const counted = Number(await t.redis.get(`${t.namespace}:one:a`));
    expect(counted).toBeGreaterThanOrEqual(1000);
    expect(counted).toBeLessThanOrEqual(1000 + 100);
  });

  it("across instances: never more than the limit admitted, and fewer by at most a lease per instance", async () => {
    const limit = 5_000; // leases of at most 5 points
    const instances = [0, 1, 2].map(() => redisLimiters(t.redis, t.namespace)(limit, 60, "shared"));
    const outcomes = (await Promise.all(instances.map((limiter) => bursts(limiter, "b", 70, 30)))).flat();
    const admitted = outcomes.filter((o) => o !== "refused").length;
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - 3 * 5);
  });

  it("hands out no leased point after the window it was counted in ended", async () => {
    const limiter = redisLimiters(t.redis, t.namespace)(10_000, 1, "short");
    await bursts(limiter, "c", 20, 10); // leases points in this window
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // A new window: the count starts again, so the first request has all but one point left.
    expect(await bursts(limiter, "c", 1, 1)).toEqual([10_000 - 1]);
  });

  it("leases nothing under a limit of 1,000: each request moves the Redis count by exactly one", async () => {
    const limiter = redisLimiters(t.redis, t.namespace)(999, 60, "small");
    await bursts(limiter, "d", 10, 10);
    expect(Number(await t.redis.get(`${t.namespace}:small:d`))).toBe(100);
  });
});
