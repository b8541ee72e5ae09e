import type { KeyScope } from "@iccid/core";
import type { Context, Middleware, ParameterizedContext } from "koa";
import { SubscriptionInactive } from "../domain/refusals.js";
import type { AccountRateLimiter } from "../limits/rate-limit.js";
import type { ApiKeys } from "../services/api-keys.js";
import type { Sessions } from "../services/sessions.js";
import { webPagePayer } from "../services/web-page-payer.js";
import type { AccountStore, Payer } from "../store/store.js";
import { HttpProblem } from "./problem.js";
import type { AppState } from "./state.js";

// Who a request is from: a Bearer API key, the account page's session cookie, or either on the lookup
// routes; and the CSRF rule of the requests that ride on the cookie.

export const SESSION_COOKIE = "iccid_session";

const SAFE_FETCH_SITES = new Set(["same-origin", "none"]);

/** The key an Authorization header presents: "" when there is none or it is not a Bearer credential. */
export function presentedKey(authorization: string): string {
  return /^Bearer[ ]+(\S*)\s*$/i.exec(authorization)?.[1] ?? "";
}

/**
 * Admits a known account's request: its subscription must be active, then it consumes a request of the
 * account's rate limit (`consume: false` only reads the rate state). The rate state goes on every answer the
 * account gets, a refusal's included (its RateLimit fields, written by the answer writer; over the rate,
 * the RateLimited refusal carries the state); `ctx.state.payer` is set only when the request is admitted.
 */
async function admitAccount(ctx: ParameterizedContext<AppState>, limiter: AccountRateLimiter, payer: Payer, consume: boolean): Promise<void> {
  const accountId = payer.account.id;
  if (payer.subscription.status !== "active") {
    // The account is known, so it is told its rate state even though this request is refused.
    ctx.state.rateLimit = await limiter.peek(accountId, payer.plan);
    throw new SubscriptionInactive(payer.subscription.status);
  }
  ctx.state.rateLimit = consume ? await limiter.consume(accountId, payer.plan) : await limiter.peek(accountId, payer.plan);
  ctx.state.payer = payer;
}

/** The Bearer pipeline: key (known, working, with the route's scope) → subscription → rate limit (admitAccount). */
export function bearer(apiKeys: ApiKeys, limiter: AccountRateLimiter, { consume, scope }: { consume: boolean; scope: KeyScope }): Middleware<AppState> {
  return async (ctx, next) => {
    const payer = await apiKeys.authenticate(presentedKey(ctx.get("Authorization")), scope);
    await admitAccount(ctx, limiter, payer, consume);
    await next();
  };
}

/** Requires a live web session (the key endpoints). */
export function requireSession(sessions: Sessions): Middleware<AppState> {
  return async (ctx, next) => {
    const active = await sessions.resolve(ctx.cookies.get(SESSION_COOKIE));
    if (!active) throw new HttpProblem("not_authenticated", "Sign in first: there is no session, or it expired.");
    ctx.state.session = active;
    await next();
  };
}

/**
 * Refuses cross-site state-changing requests that ride on the session cookie: a browser says where a
 * request comes from in Sec-Fetch-Site and Origin; a non-browser client sends neither and is not at risk.
 */
export function csrfGuard(): Middleware {
  return async (ctx, next) => {
    const site = ctx.get("Sec-Fetch-Site");
    const origin = ctx.get("Origin");
    const ownOrigin = `${ctx.protocol}://${ctx.host}`;
    if ((site !== "" && !SAFE_FETCH_SITES.has(site)) || (origin !== "" && origin !== ownOrigin)) {
      throw new HttpProblem("csrf_rejected", "Cross-site requests may not change session state.");
    }
    await next();
  };
}

/**
 * The lookup routes' guard: a Bearer key, or else the account page's session cookie. A request with an
 * Authorization header, or without a session cookie, takes the Bearer pipeline as any API call. One with
 * only the cookie is held to the other session routes' CSRF rule, then to the same subscription check and
 * rate limit as a key (admitAccount), and is charged to the account under the page's own usage id.
 */
export function keyOrSession(
  apiKeys: ApiKeys,
  sessions: Sessions,
  store: Pick<AccountStore, "getSubscription" | "getPlan">,
  limiter: AccountRateLimiter,
  auth: { consume: boolean; scope: KeyScope },
): Middleware<AppState> {
  const byKey = bearer(apiKeys, limiter, auth);
  const csrf = csrfGuard();
  const session = requireSession(sessions);
  return async (ctx, next) => {
    if (ctx.get("Authorization") !== "" || ctx.cookies.get(SESSION_COOKIE) === undefined) return byKey(ctx, next);
    await csrf(ctx, () =>
      session(ctx, async () => {
        await admitAccount(ctx, limiter, await webPagePayer(store, ctx.state.session.account), auth.consume);
        await next();
      }),
    );
  };
}

/** Sets or clears the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure on HTTPS. */
export function setSessionCookie(ctx: Context, secret: string | null, expiresAt?: number): void {
  ctx.cookies.set(SESSION_COOKIE, secret ?? "", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: ctx.secure,
    overwrite: true,
    ...(secret === null ? { expires: new Date(0), maxAge: 0 } : { expires: new Date(expiresAt!) }),
  });
}
