import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimited } from "../domain/refusals.js";
import type { LimiterFactory } from "./rate-limit.js";

/**
 * Usage reads have a budget of their own per account (policy "usage"), apart from the plan's request rate
 * they do not spend: a report reads many rows, so unlimited reads by one account slowed everyone's
 * lookups. Over it, a `RateLimited` refusal of the "usage_reads" budget, with the state to tell the account.
 */
export class UsageReadLimit {
  readonly #limiter: RateLimiterAbstract;

  constructor(
    factory: LimiterFactory,
    private readonly reads: number,
    private readonly windowSeconds: number,
  ) {
    this.#limiter = factory(reads, windowSeconds, "usage-reads");
  }

  async take(accountId: string): Promise<void> {
    try {
      await this.#limiter.consume(accountId, 1);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const resetSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new RateLimited("usage_reads", resetSeconds, { limit: this.reads, windowSeconds: this.windowSeconds, remaining: 0, resetSeconds });
    }
  }
}
