import { RateLimiterRes } from "rate-limiter-flexible";
import { RateLimited } from "../domain/refusals.js";
import type { Limiter, LimiterFactory } from "./rate-limit.js";

/**
 * Counts sign-in attempts per email and per client IP. Each attempt takes its point atomically BEFORE the
 * password is checked, so parallel guesses cannot all pass a check that ran before any of them failed;
 * once either budget is used up, attempts are refused (`RateLimited`) without checking the password. A success
 * clears the email's count and gives the IP its point back, so only failures use them up.
 */
export class LoginThrottle {
  readonly #byEmail: Limiter;
  readonly #byIp: Limiter;

  constructor(factory: LimiterFactory, perEmail: number, perIp: number, windowSeconds: number) {
    this.#byEmail = factory(perEmail, windowSeconds, "login:email");
    this.#byIp = factory(perIp, windowSeconds, "login:ip");
  }

  /** Takes one attempt from both budgets, or refuses with the longer wait when either is used up. */
  async attempt(email: string, ip: string): Promise<void> {
    const results = await Promise.allSettled([this.#byEmail.consume(email), this.#byIp.consume(ip)]);
    const refusals: RateLimiterRes[] = [];
    for (const result of results) {
      if (result.status === "fulfilled") continue;
      if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
      refusals.push(result.reason);
    }
    if (refusals.length === 0) return;
    const retryAfter = Math.max(1, ...refusals.map((res) => Math.ceil(res.msBeforeNext / 1000)));
    // No budget state: these budgets count an email and an IP, not an account, so sign-in answers carry
    // Retry-After but no RateLimit fields.
    throw new RateLimited("sign_in", retryAfter);
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([this.#byEmail.delete(email), this.#byIp.reward(ip, 1)]);
  }
}
