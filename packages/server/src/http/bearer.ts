import type { KeyScope } from "@iccid/core";
import type { Middleware, ParameterizedContext } from "koa";
import { SubscriptionInactive } from "../domain/refusals.js";
import type { AccountRateLimiter } from "../limits/rate-limit.js";
import type { ApiKeys } from "../services/api-keys.js";
import type { Payer } from "../store/store.js";
import type { AppState } from "./state.js";

/** The key an Authorization header presents: "" when there is none or it is not a Bearer credential. */
export function presentedKey(authorization: string): string {
  return /^Bearer[ ]+(\S*)\s*$/i.exec(authorization)?.[1] ?? "";
}

/**
 * Admits a known account's request: its subscription must be active, then it spends a request of the
 * account's rate limit (`spend: false` only reads the rate state). The rate state goes on every answer the
 * account gets, a refusal's included; `ctx.state.grant` is set only when the request is admitted.
 */
export async function admitAccount(ctx: ParameterizedContext<AppState>, limiter: AccountRateLimiter, grant: Payer, spend: boolean): Promise<void> {
  const accountId = grant.account.id;
  if (grant.subscription.status !== "active") {
    // The account is known, so it is told its rate state even though this request is refused.
    ctx.state.rateLimit = await limiter.peek(accountId, grant.plan);
    throw new SubscriptionInactive(grant.subscription.status);
  }
  // Over the rate, consume refuses with RateLimited, whose state the problem mapper writes as the fields.
  // The state goes on every answer with the common fields (answer-writer.ts).
  ctx.state.rateLimit = spend ? await limiter.consume(accountId, grant.plan) : await limiter.peek(accountId, grant.plan);
  ctx.state.grant = grant;
}

/** The Bearer pipeline: key (known, working, with the route's scope) → subscription → rate limit (admitAccount). */
export function bearer(apiKeys: ApiKeys, limiter: AccountRateLimiter, { spend, scope }: { spend: boolean; scope: KeyScope }): Middleware<AppState> {
  return async (ctx, next) => {
    const grant = await apiKeys.authenticate(presentedKey(ctx.get("Authorization")), scope);
    await admitAccount(ctx, limiter, grant, spend);
    await next();
  };
}
