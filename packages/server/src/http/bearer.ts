import type { Middleware } from "koa";
import { AccountRateLimiter, RateLimitExceeded, rateLimitHeaders } from "../limits/rate-limit.js";
import type { ApiKeys } from "../services/api-keys.js";
import { HttpProblem } from "./problem.js";
import type { AppState } from "./state.js";

/**
 * The Bearer pipeline: key → subscription → rate limit. `spend: false` reads the rate state without using
 * a request (usage reads), so the RateLimit fields are on every answer an account gets.
 */
export function bearer(apiKeys: ApiKeys, limiter: AccountRateLimiter, { spend }: { spend: boolean }): Middleware<AppState> {
  return async (ctx, next) => {
    const grant = await apiKeys.authenticate(ctx.get("Authorization"));
    const accountId = grant.account.id;
    if (grant.subscription.status !== "active") {
      ctx.set(rateLimitHeaders(await limiter.peek(accountId, grant.plan)));
      throw new HttpProblem("no_active_subscription", `The account's subscription is ${grant.subscription.status}.`);
    }
    try {
      ctx.state.rateLimit = spend ? await limiter.consume(accountId, grant.plan) : await limiter.peek(accountId, grant.plan);
    } catch (error) {
      if (!(error instanceof RateLimitExceeded)) throw error;
      const retryAfter = Math.max(1, error.state.resetSeconds);
      ctx.set(rateLimitHeaders(error.state));
      throw new HttpProblem("rate_limited", `Over ${grant.plan.rate_limit} requests per ${grant.plan.window_seconds} s.`, {
        retry_after: retryAfter,
        headers: { "Retry-After": String(retryAfter) },
      });
    }
    ctx.set(rateLimitHeaders(ctx.state.rateLimit));
    ctx.state.grant = grant;
    await next();
  };
}
