import type { Middleware, Next, ParameterizedContext } from "koa";
import type { IdempotentRequests } from "../services/idempotent-requests.js";
import { StoreUnavailable } from "../store/errors.js";
import { JSON_CONTENT_TYPE } from "./answer-writer.js";
import { HttpProblem } from "./problem.js";
import type { AppState } from "./state.js";

/** 1 to 255 printable ASCII characters (docs/api.md, "Idempotency"). */
const WELL_FORMED_KEY = /^[\x20-\x7e]{1,255}$/;

/** What a route's requests with an Idempotency-Key keep for their replays. */
export interface IdempotentRoute {
  /**
   * For a route whose replay must not run again (key creation): the body its replays answer, from the
   * first answer's body (for a created key: without its secret). Absent: a replay runs again, uncharged.
   */
  replayBody?: (value: unknown) => unknown;
}

/**
 * Idempotency-Key, after the route's auth, rate limit and body guard: a request without the header runs as
 * ever. With it, the key is claimed for the account and route with the body's text (IdempotentRequests), and the
 * claim is left on `ctx.state.claimed` for the handler's charge, which finds out whether the request was
 * proven before (key creation, whose replays answer a kept answer, reads its proof at once). A replay runs again and is charged
 * nothing (a kept answer, for key creation, is answered as it is); either way it carries
 * `Idempotent-Replayed: true`. The key is released once the handler is done, its charge made or refused,
 * also when the client went away meanwhile.
 */
export function idempotency(requests: IdempotentRequests, route: IdempotentRoute, accountOf: (state: AppState) => string): Middleware<AppState> {
  // Not async: a request without the header costs one header read, no promise.
  return (ctx, next) => {
    const key = ctx.req.headers["idempotency-key"];
    return key === undefined ? next() : withKey(ctx, next, key);
  };

  async function withKey(ctx: ParameterizedContext<AppState>, next: Next, key: string | string[]): Promise<void> {
    if (typeof key !== "string" || !WELL_FORMED_KEY.test(key)) {
      throw new HttpProblem("invalid_idempotency_key", "Idempotency-Key: must be 1 to 255 printable ASCII characters.");
    }
    // The body guard ran before: its text, as the client sent it (none: "").
    const body = ctx.request.rawBody ?? "";
    const claimed = await requests.begin({ accountId: accountOf(ctx.state), route: ctx.state.route!, key }, body, route.replayBody !== undefined);
    try {
      if (claimed.keptAnswer) {
        ctx.status = claimed.keptAnswer.status;
        ctx.set("Content-Type", JSON_CONTENT_TYPE);
        ctx.set("Idempotent-Replayed", "true");
        ctx.body = Buffer.from(claimed.keptAnswer.body);
        return;
      }
      ctx.state.claimed = claimed;
      let storeSilent = false;
      try {
        await next();
      } catch (error) {
        storeSilent = error instanceof StoreUnavailable;
        throw error;
      } finally {
        // A request that charged nothing learnt nothing of a proof: another body under the key is refused
        // still. Not after the store did not answer (503): asking it again would hold the answer up past
        // the query timeout, and the retry the 503 asks for reads the proof.
        if (!claimed.charged && !claimed.replayed && !storeSilent) await claimed.readProof();
      }
      if (ctx.status < 200 || ctx.status > 299 || ctx.res.headersSent) return;
      if (claimed.replayed) ctx.set("Idempotent-Replayed", "true");
      else if (route.replayBody) await requests.keep(claimed, ctx.status, JSON.stringify(route.replayBody(ctx.body)));
    } finally {
      // Not waited for: this instance sends the release before any later claim of its own, and a retry that
      // reaches another instance after this answer makes its rate-limit call to Redis before it claims.
      void claimed.end();
    }
  }
}
