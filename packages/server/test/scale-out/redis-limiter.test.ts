import { describe, expect, it } from "vitest";
import { redisLimiters } from "../../src/limits/redis-limiters.js";
import { useTestRedis } from "./test-redis.js";

// The Redis limiter's other calls (the sign-in throttle's reward and delete, the usage read's get) on a real
// Redis, and the in-memory limiter answering a command Redis refuses.

const t = useTestRedis();

describe("the Redis limiter", () => {
  it("reads a key's count and window, gives points back and forgets a key, all in Redis", async () => {
    const limiter = redisLimiters(t.redis, t.namespace)(5, 60, "calls");
    expect(await limiter.get("k")).toBeNull();
    await limiter.consume("k");
    await limiter.consume("k");
    const read = await limiter.get("k");
    expect(read).toMatchObject({ consumedPoints: 2, remainingPoints: 3 });
    expect(read!.msBeforeNext).toBeGreaterThan(55_000);
    expect(await limiter.reward("k", 1)).toMatchObject({ consumedPoints: 1, remainingPoints: 4 });
    expect(await t.redis.get(`${t.namespace}:calls:k`)).toBe("1");
    expect(await limiter.delete("k")).toBe(true);
    expect(await limiter.delete("k")).toBe(false);
    expect(await t.redis.exists(`${t.namespace}:calls:k`)).toBe(0);
  });

  it("answers from memory when Redis refuses the command, and leaves the key as it was", async () => {
    const limiter = redisLimiters(t.redis, t.namespace)(2, 60, "refused");
    await t.redis.set(`${t.namespace}:refused:k`, "not a number");
    const outcomes = await Promise.allSettled([limiter.consume("k"), limiter.consume("k"), limiter.consume("k")]);
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value.remainingPoints : "refused"))).toEqual([1, 0, "refused"]);
    expect(await t.redis.get(`${t.namespace}:refused:k`)).toBe("not a number");
  });
});
