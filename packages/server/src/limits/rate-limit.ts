import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { RateLimitState } from "../domain/rate-limit-state.js";
import { addressBudgetKey } from "./address-budget.js";
import { RateLimited, type RateBudget } from "../domain/refusals.js";
import type { Plan } from "../store/store.js";

/**
 * A budget of points per window for each key, as rate-limiter-flexible keeps it (RateLimiterMemory, or
 * RateLimiterRedis in redis-limiters.ts): `consume` rejects with the RateLimiterRes it leaves when that
 * is past the budget.
 */
export type Limiter = Pick<RateLimiterAbstract, "consume" | "reward" | "get" | "delete">;

/** Makes a limiter of `points` per `durationSeconds`; `keyPrefix` keeps limiters' counters apart. */
export type LimiterFactory = (points: number, durationSeconds: number, keyPrefix: string) => Limiter;

/** Counters in this process: right for one instance. */
export const memoryLimiters: LimiterFactory = (points, duration, keyPrefix) => new RateLimiterMemory({ points, duration, keyPrefix });

type PlanRate = Pick<Plan, "rate_limit" | "window_seconds">;

/**
 * Per-account request rate from the account's plan (a batch is one request). One limiter per distinct
 * (limit, window), built on first use, so changing a plan takes effect without a restart.
 */
export class AccountRateLimiter {
  readonly #limiters = new Map<string, Limiter>();

  constructor(private readonly factory: LimiterFactory = memoryLimiters) {}

  #limiter(plan: PlanRate): Limiter {
    const id = `${plan.rate_limit}/${plan.window_seconds}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) this.#limiters.set(id, (limiter = this.factory(plan.rate_limit, plan.window_seconds, `rl:${id}`)));
    return limiter;
  }

  consume(accountId: string, plan: PlanRate): Promise<RateLimitState> {
    return consumeOrRefuse(this.#limiter(plan), accountId, "requests", plan.rate_limit, plan.window_seconds);
  }

  /** The current state without consuming a request (for usage reads). */
  async peek(accountId: string, plan: PlanRate): Promise<RateLimitState> {
    const res = await this.#limiter(plan).get(accountId);
    if (!res) return { limit: plan.rate_limit, windowSeconds: plan.window_seconds, remaining: plan.rate_limit, resetSeconds: 0 };
    return limitState(plan.rate_limit, plan.window_seconds, res);
  }
}

/**
 * Usage reads have a budget of their own per account (policy "usage"), apart from the plan's request rate
 * they do not consume: a report reads many rows, so unlimited reads by one account slowed everyone's lookups.
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

/** A sign-in attempt the throttle refused. */
export interface Throttled {
  refusal: RateLimited;
  /** The attempts counted for the email in this window so far. */
  attempts: number;
  /** Whether this is the attempt that used the email's budget up: the first its window refuses for it. */
  first: boolean;
}

/**
 * Counts sign-in attempts per email and per client IP. Each attempt takes its point atomically BEFORE the
 * password is checked, so parallel guesses cannot all pass a check that ran before any of them failed;
 * once either budget is used up, attempts are refused without checking the password. A success clears the
 * email's count and gives the IP its point back, so only failures use them up.
 *
 * What a stranger's failures may write is bounded too: an account's trail takes at most `eventsPerDay`
 * failed sign-ins a day (`mayRecord`), and of an email's refused attempts, only the one that used its
 * budget up (`first`: one per window, whatever else the window refuses, and none for an attempt the IP's
 * budget alone refused, which says something of the client, not of the account).
 */
export class LoginThrottle {
  readonly #byEmail: Limiter;
  readonly #byIp: Limiter;
  readonly #eventsByAccount: Limiter;

  constructor(
    factory: LimiterFactory,
    private readonly perEmail: number,
    perIp: number,
    windowSeconds: number,
    eventsPerDay: number,
  ) {
    this.#byEmail = factory(perEmail, windowSeconds, "login:email");
    this.#byIp = factory(perIp, windowSeconds, "login:ip");
    this.#eventsByAccount = factory(eventsPerDay, 86_400, "login:events");
  }

  /** Takes one attempt from both budgets; answers the refusal, with the longer wait, when either is used up. */
  async attempt(email: string, ip: string): Promise<Throttled | undefined> {
    const [byEmail, byIp] = await Promise.allSettled([this.#byEmail.consume(email), this.#byIp.consume(addressBudgetKey(ip))]);
    const refusals: RateLimiterRes[] = [];
    for (const result of [byEmail, byIp]) {
      if (result.status === "fulfilled") continue;
      if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
      refusals.push(result.reason);
    }
    if (refusals.length === 0) return undefined;
    const retryAfter = Math.max(1, ...refusals.map((res) => Math.ceil(res.msBeforeNext / 1000)));
    const emailRes = byEmail.status === "fulfilled" ? byEmail.value : (byEmail.reason as RateLimiterRes);
    // No budget state: these budgets count an email and an IP, not an account, so sign-in answers carry
    // Retry-After but no RateLimit fields.
    const attempts = emailRes.consumedPoints;
    return { refusal: new RateLimited("sign_in", retryAfter), attempts, first: attempts === this.perEmail + 1 };
  }

  /** Whether the account's trail may take one more failed sign-in today. */
  mayRecord(accountId: string): Promise<boolean> {
    return taken(this.#eventsByAccount, accountId);
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([this.#byEmail.delete(email), this.#byIp.reward(addressBudgetKey(ip), 1)]);
  }
}

/** Takes a point of `key`'s budget: answers whether there was one. */
async function taken(limiter: Limiter, key: string): Promise<boolean> {
  try {
    await limiter.consume(key, 1);
    return true;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return false;
    throw rejection;
  }
}

/**
 * Spends one point of `key`'s budget and answers the state it leaves; over the budget, refuses with
 * `RateLimited` carrying that state, so the account is told its RateLimit fields.
 */
async function consumeOrRefuse(limiter: Limiter, key: string, budget: RateBudget, limit: number, windowSeconds: number): Promise<RateLimitState> {
  try {
    return limitState(limit, windowSeconds, await limiter.consume(key, 1));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const over = limitState(limit, windowSeconds, rejection);
    throw new RateLimited(budget, Math.max(1, over.resetSeconds), over);
  }
}

function limitState(limit: number, windowSeconds: number, res: RateLimiterRes): RateLimitState {
  return {
    limit,
    windowSeconds,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
  };
}
