import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { RateLimitState } from "../domain/rate-limit-state.js";
import { RateLimited } from "../domain/refusals.js";
import type { Plan } from "../store/store.js";

/** Makes a limiter of `points` per `durationSeconds`; `keyPrefix` keeps limiters' counters apart. */
export type LimiterFactory = (points: number, durationSeconds: number, keyPrefix: string) => RateLimiterAbstract;

/** Counters in this process: right for one instance. */
export const memoryLimiters: LimiterFactory = (points, duration, keyPrefix) =>
  new RateLimiterMemory({ points, duration, keyPrefix });

/**
 * Per-account request rate from the account's plan (a batch is one request). One limiter per distinct
 * (limit, window), built on first use, so changing a plan takes effect without a restart.
 */
export class AccountRateLimiter {
  readonly #limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly factory: LimiterFactory = memoryLimiters) {}

  #limiter(plan: Plan): RateLimiterAbstract {
    const id = `${plan.rate_limit}/${plan.window_seconds}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) {
      limiter = this.factory(plan.rate_limit, plan.window_seconds, `rl:${id}`);
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Spends one request, or refuses with the state the account is then in (it is told its RateLimit fields). */
  async consume(accountId: string, plan: Plan): Promise<RateLimitState> {
    try {
      return state(plan, await this.#limiter(plan).consume(accountId, 1));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const over = state(plan, rejection);
      throw new RateLimited("requests", Math.max(1, over.resetSeconds), over);
    }
  }

  /** The current state without spending a request (for usage reads). */
  async peek(accountId: string, plan: Plan): Promise<RateLimitState> {
    const res = await this.#limiter(plan).get(accountId);
    if (!res) return { limit: plan.rate_limit, windowSeconds: plan.window_seconds, remaining: plan.rate_limit, resetSeconds: 0 };
    return state(plan, res);
  }
}

function state(plan: Plan, res: RateLimiterRes): RateLimitState {
  return {
    limit: plan.rate_limit,
    windowSeconds: plan.window_seconds,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
  };
}
