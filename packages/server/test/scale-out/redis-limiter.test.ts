import { RateLimiterRes } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { redisLimiters } from "../../src/limits/redis-limiters.js";
import { connectRedis, redisReady } from "../../src/redis.js";
import { RedisHealth } from "../../src/redis-health.js";
import { useTestRedis } from "./test-redis.js";

// The Redis limiters on a real Redis: limits exact across instances, each request told its own remaining
// count, the sign-in throttle's reward and delete and the usage read's get, keys in their documented form,
// and the in-memory limiter answering while Redis is not ready or refuses a command.
const REDIS = process.env.ICCID_TEST_REDIS_URL!;

const t = useTestRedis();

/** Outcome of each consume, in call order: remaining points when admitted, "refused" when not. */
async function consumeAll(consumes: Array<Promise<RateLimiterRes>>): Promise<Array<number | "refused">> {
  const settled = await Promise.allSettled(consumes);
  return settled.map((s) => {
    if (s.status === "fulfilled") return s.value.remainingPoints;
    expect(s.reason).toBeInstanceOf(RateLimiterRes);
    return "refused";
  });
}

describe("the Redis limiter", () => {
  it("admits exactly the limit, each request told its own remaining count in arrival order", async () => {
    const limiter = redisLimiters(t.redis, t.namespace)(100, 60, "exact");
    const outcomes = await consumeAll(Array.from({ length: 150 }, () => limiter.consume("account-a")));
    expect(outcomes).toEqual([...Array.from({ length: 100 }, (_, i) => 99 - i), ...Array(50).fill("refused")]);
    expect(await t.redis.get(`${t.namespace}:exact:{account-a}`)).toBe("150"); // refused requests count too
  });

  it("admits exactly the limit across two instances, each on its own connection", async () => {
    const other = connectRedis(REDIS);
    try {
      expect(await redisReady(other)).toBe(true);
      const instances = [redisLimiters(t.redis, t.namespace)(100, 60, "shared"), redisLimiters(other, t.namespace)(100, 60, "shared")];
      const outcomes = (await Promise.all(instances.map((limiter) => consumeAll(Array.from({ length: 80 }, () => limiter.consume("b")))))).flat();
      expect(outcomes.filter((o) => o !== "refused").sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 100 }, (_, i) => i));
    } finally {
      await other.quit();
    }
  });

  it("keeps accounts and limiters apart, and continues the count across turns", async () => {
    const factory = redisLimiters(t.redis, t.namespace);
    const small = factory(2, 60, "small");
    const large = factory(5, 60, "large");
    const outcomes = await consumeAll([small.consume("b"), large.consume("b"), small.consume("c"), small.consume("b"), small.consume("b"), large.consume("b")]);
    expect(outcomes).toEqual([1, 4, 1, 0, "refused", 3]);
    expect(await consumeAll([large.consume("b"), small.consume("c")])).toEqual([2, 0]);
    const res = await large.get("b");
    expect(res?.consumedPoints).toBe(3);
    expect(res?.msBeforeNext).toBeGreaterThan(0);
  });

  it("reads a key's count and window, gives points back and forgets a key, all in Redis", async () => {
    const limiter = redisLimiters(t.redis, t.namespace)(5, 60, "calls");
    expect(await limiter.get("k")).toBeNull();
    await limiter.consume("k");
    await limiter.consume("k");
    const read = await limiter.get("k");
    expect(read).toMatchObject({ consumedPoints: 2, remainingPoints: 3 });
    expect(read!.msBeforeNext).toBeGreaterThan(55_000);
    expect(await limiter.reward("k", 1)).toMatchObject({ consumedPoints: 1, remainingPoints: 4 });
    expect(await t.redis.get(`${t.namespace}:calls:{k}`)).toBe("1");
    expect(await limiter.delete("k")).toBe(true);
    expect(await limiter.delete("k")).toBe(false);
    expect(await t.redis.exists(`${t.namespace}:calls:{k}`)).toBe(0);
  });

  it("answers from memory when Redis refuses the command, leaves the key as it was, and asks again a second later", async () => {
    const health = new RedisHealth(t.redis);
    const limiter = redisLimiters(t.redis, t.namespace, health)(2, 60, "refused");
    await t.redis.set(`${t.namespace}:refused:{k}`, "not a number");
    expect(await consumeAll([limiter.consume("k"), limiter.consume("k"), limiter.consume("k")])).toEqual([1, 0, "refused"]);
    expect(await t.redis.get(`${t.namespace}:refused:{k}`)).toBe("not a number");
    expect(health.answering).toBe(false);
    // While it fails, the next calls are answered from memory without asking; a second on, one asks again.
    expect(await consumeAll([limiter.consume("other")])).toEqual([1]);
    expect(await t.redis.exists(`${t.namespace}:refused:{other}`)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await consumeAll([limiter.consume("other")])).toEqual([1]);
    expect(await t.redis.get(`${t.namespace}:refused:{other}`)).toBe("1");
    expect(health.answering).toBe(true);
  });

  it("falls back to the in-memory limiter when Redis is not ready, still counting each request", async () => {
    const down = connectRedis(REDIS);
    down.disconnect(); // status is no longer "ready": the insurance limiter answers
    const limiter = redisLimiters(down, t.namespace)(2, 60, "down");
    expect(await consumeAll([limiter.consume("d"), limiter.consume("d"), limiter.consume("d")])).toEqual([1, 0, "refused"]);
  });
});
