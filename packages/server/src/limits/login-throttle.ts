import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { HttpProblem } from "../http/problem.js";
import type { LimiterFactory } from "./rate-limit.js";

/**
 * Counts failed logins per email and per client IP; once either is used up, further attempts are refused
 * with 429 before the password is even checked, so guessing stays slow whichever way it is spread.
 */
export class LoginThrottle {
  readonly #byEmail: RateLimiterAbstract;
  readonly #byIp: RateLimiterAbstract;

  constructor(factory: LimiterFactory, perEmail: number, perIp: number, windowSeconds: number) {
    this.#byEmail = factory(perEmail, windowSeconds, "login:email");
    this.#byIp = factory(perIp, windowSeconds, "login:ip");
  }

  async assertAllowed(email: string, ip: string): Promise<void> {
    const [byEmail, byIp] = await Promise.all([this.#byEmail.get(email), this.#byIp.get(ip)]);
    const blocked = [byEmail, byIp].filter((res): res is RateLimiterRes => res !== null && res.remainingPoints <= 0);
    if (blocked.length === 0) return;
    const retryAfter = Math.max(1, ...blocked.map((res) => Math.ceil(res.msBeforeNext / 1000)));
    throw new HttpProblem("rate_limited", "Too many failed sign-in attempts; try again later.", {
      retry_after: retryAfter,
      headers: { "Retry-After": String(retryAfter) },
    });
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    // consume() rejects once the points are gone; that is the throttle working, not an error here.
    await Promise.allSettled([this.#byEmail.consume(email), this.#byIp.consume(ip)]);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.#byEmail.delete(email);
  }
}
