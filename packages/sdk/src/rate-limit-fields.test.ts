import { describe, expect, it } from "vitest";
import { parseRateLimitFields, parseRetryAfter } from "./rate-limit-fields.js";

describe("parseRateLimitFields", () => {
  it("reads the policy and the current numbers", () => {
    expect(parseRateLimitFields({ "ratelimit-policy": '"default";q=600;w=60', ratelimit: '"default";r=599;t=42' })).toEqual({
      policy: "default",
      limit: 600,
      windowSeconds: 60,
      remaining: 599,
      resetSeconds: 42,
    });
  });

  it("matches the current numbers to their policy by name", () => {
    const info = parseRateLimitFields({ "ratelimit-policy": '"burst";q=10;w=1, "day";q=5000;w=86400', ratelimit: '"day";r=12;t=100' });
    expect(info).toMatchObject({ policy: "day", limit: 5000, windowSeconds: 86400, remaining: 12 });
  });

  it("tolerates absent and unreadable fields", () => {
    expect(parseRateLimitFields({})).toBeUndefined();
    expect(parseRateLimitFields({ ratelimit: "garbage;r=x" })).toEqual({
      policy: "garbage",
      limit: undefined,
      windowSeconds: undefined,
      remaining: undefined,
      resetSeconds: undefined,
    });
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("7")).toBe(7000);
    const now = Date.parse("2026-11-21T04:00:00Z");
    expect(parseRetryAfter("Sat, 21 Nov 2026 04:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 03:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});
