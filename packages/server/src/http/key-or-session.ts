import type { KeyScope } from "@iccid/core";
import type { Middleware } from "koa";
import type { AccountRateLimiter } from "../limits/rate-limit.js";
import type { ApiKeys } from "../services/api-keys.js";
import type { Sessions } from "../services/sessions.js";
import { webPagePayer } from "../services/web-page-payer.js";
import type { AccountStore } from "../store/store.js";
import { admitAccount, bearer } from "./bearer.js";
import { csrfGuard } from "./csrf.js";
import { requireSession, SESSION_COOKIE } from "./session-auth.js";
import type { AppState } from "./state.js";

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
  auth: { spend: boolean; scope: KeyScope },
): Middleware<AppState> {
  const byKey = bearer(apiKeys, limiter, auth);
  const csrf = csrfGuard();
  const session = requireSession(sessions);
  return async (ctx, next) => {
    if (ctx.get("Authorization") !== "" || ctx.cookies.get(SESSION_COOKIE) === undefined) return byKey(ctx, next);
    await csrf(ctx, () =>
      session(ctx, async () => {
        await admitAccount(ctx, limiter, await webPagePayer(store, ctx.state.session.account), auth.spend);
        await next();
      }),
    );
  };
}
