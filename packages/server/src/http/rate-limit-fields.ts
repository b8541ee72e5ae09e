import type { RateLimitState } from "../domain/rate-limit-state.js";

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers) for a state of a policy: "default" is
 * the plan's request rate, "usage" the usage-read budget.
 */
export function rateLimitFields(s: RateLimitState, policy: "default" | "usage" = "default"): Record<string, string> {
  return { "RateLimit-Policy": `"${policy}";q=${s.limit};w=${s.windowSeconds}`, RateLimit: `"${policy}";r=${s.remaining};t=${s.resetSeconds}` };
}
