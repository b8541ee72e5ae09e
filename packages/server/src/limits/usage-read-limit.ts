import { consumeOrRefuse, type Limiter, type LimiterFactory } from "./rate-limit.js";

/**
 * Usage reads have a budget of their own per account (policy "usage"), apart from the plan's request rate
 * they do not consume: a report reads many rows, so unlimited reads by one account slowed everyone's
 * lookups. Over it, a `RateLimited` refusal of the "usage_reads" budget, with the state to tell the account.
 */
export class UsageReadLimit {
  readonly #limiter: Limiter;

  constructor(
    factory: LimiterFactory,
    private readonly reads: number,
    private readonly windowSeconds: number,
  ) {
    this.#limiter = factory(reads, windowSeconds, "usage-reads");
  }

  async take(accountId: string): Promise<void> {
    await consumeOrRefuse(this.#limiter, accountId, "usage_reads", this.reads, this.windowSeconds);
  }
}
