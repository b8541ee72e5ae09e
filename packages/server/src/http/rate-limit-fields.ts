import type { RateLimitState } from "../domain/rate-limit-state.js";

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) for a state of a policy, as name,
 * value, name, value: "default" is the plan's request rate, "usage" the usage-read budget.
 */
export function rateLimitFields(s: RateLimitState, policy: "default" | "usage" = "default"): [string, string, string, string] {
  return ["RateLimit-Policy", `"${policy}";q=${s.limit};w=${s.windowSeconds}`, "RateLimit", `"${policy}";r=${s.remaining};t=${s.resetSeconds}`];
}

/** The same fields as an object of headers. */
export function rateLimitHeaders(s: RateLimitState, policy: "default" | "usage" = "default"): Record<string, string> {
  const [policyName, policyValue, stateName, stateValue] = rateLimitFields(s, policy);
  return { [policyName]: policyValue, [stateName]: stateValue };
}
