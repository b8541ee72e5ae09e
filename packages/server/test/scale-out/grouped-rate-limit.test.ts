import { RateLimiterRes } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { connectRedis, redisLimiters } from "../../src/limits/redis-limiters.js";
import { useTestRedis } from "./test-redis.js";

// The Redis limiters send the counters moved in one grouping window as one command; each request must
// still get what it would have got alone: admitted or refused exactly at the limit, its own remaining count.
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

describe("rate-limit increments grouped per grouping window", () => {
  it("admit exactly the limit, each request told its own remaining count in arrival order, in one Redis command", async () => {
    const limiter = redisLimiters(t.redis, t.namespace)(100, 60, "exact");
    const before = await t.evalshaCalls();
    const outcomes = await consumeAll(Array.from({ length: 150 }, () => limiter.consume("account-a")));
    expect(outcomes).toEqual([...Array.from({ length: 100 }, (_, i) => 99 - i), ...Array(50).fill("refused")]);
    // Other tests may share this Redis: at most a few commands, far fewer than 150.
    expect((await t.evalshaCalls()) - before).toBeLessThan(10);
    expect(Number(await t.redis.get(`${t.namespace}:exact:account-a`))).toBe(150); // refused requests count too, as alone
  });

  it("keep accounts and limiters apart within one command, and continue the count across turns", async () => {
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

  it("fall back to the in-memory limiter when Redis is not ready, still counting each request", async () => {
    const down = connectRedis(REDIS);
    down.disconnect(); // status is no longer "ready": the insurance limiter answers
    const limiter = redisLimiters(down, t.namespace)(2, 60, "down");
    expect(await consumeAll([limiter.consume("d"), limiter.consume("d"), limiter.consume("d")])).toEqual([1, 0, "refused"]);
  });
});

