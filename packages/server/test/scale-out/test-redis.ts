import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect } from "vitest";
import { connectRedis, redisReady } from "../../src/redis.js";

/**
 * The Redis at ICCID_TEST_REDIS_URL for one test file: connected before its tests, with a namespace of its
 * own for the limiters' keys, which are deleted after them.
 */
export function useTestRedis(): { readonly redis: Redis; readonly namespace: string } {
  let redis: Redis | undefined;
  const namespace = `iccid-test:${randomBytes(6).toString("hex")}`;
  beforeAll(async () => {
    redis = connectRedis(process.env.ICCID_TEST_REDIS_URL!);
    expect(await redisReady(redis)).toBe(true);
  });
  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${namespace}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });
  return {
    get redis() {
      return redis!;
    },
    namespace,
  };
}
