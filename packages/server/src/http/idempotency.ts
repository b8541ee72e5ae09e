import type { Middleware, Next, ParameterizedContext } from "koa";
import type { IdempotentRequests } from "../services/idempotent-requests.js";
import { readBodyAhead } from "./json-body.js";
import { HttpProblem } from "./problem.js";
import type { AppState } from "./state.js";

/** 1 to 255 printable ASCII characters (docs/api.md, "Idempotency"). */
const WELL_FORMED_KEY = /^[\x20-\x7e]{1,255}$/;

/** What a route's requests with an Idempotency-Key keep for their replays. */
export interface IdempotentRoute {
  /** The body a replay answers, from the body the first answer had (for a created key: without its secret). */
  replayBody?: (value: unknown) => unknown;
}

/**
 * Idempotency-Key, after the route's auth and rate limit: a request without the header runs as ever. With
 * it, the body is read ahead and the key claimed for the account and route (IdempotentRequests): a request
 * seen before is answered what it was answered, with `Idempotent-Replayed: true`, and not run. A claimed
 * request runs, and once its handling has ended the answer writer hands its answer to `ctx.state.settleClaim`:
 * a 2xx answer is kept for replays; any other did nothing (refused before it was run or charged), so the
 * key is released and the same request may run again; so is it when no answer was written. Never on the
 * client's going away: a handler still running may yet charge, and its answer must then be kept.
 */
export function idempotency(requests: IdempotentRequests, route: IdempotentRoute, accountOf: (state: AppState) => string, limitBytes: number): Middleware<AppState> {
  // Not async: a request without the header (nearly all of them) costs one header read, no promise.
  return (ctx, next) => {
    const key = ctx.req.headers["idempotency-key"];
    return key === undefined ? next() : withKey(ctx, next, key);
  };

  async function withKey(ctx: ParameterizedContext<AppState>, next: Next, key: string | string[]): Promise<void> {
    if (typeof key !== "string" || !WELL_FORMED_KEY.test(key)) {
      throw new HttpProblem("invalid_idempotency_key", "Idempotency-Key: must be 1 to 255 printable ASCII characters.");
    }
    const body = (await readBodyAhead(ctx, limitBytes)) ?? "";
    const decision = await requests.begin({ accountId: accountOf(ctx.state), route: ctx.state.route!, key }, body);
    if ("replay" in decision) {
      const { status, contentType, body: kept } = decision.replay;
      ctx.status = status;
      ctx.set("Content-Type", contentType);
      ctx.set("Idempotent-Replayed", "true");
      ctx.body = Buffer.from(kept);
      return;
    }
    const claimed = decision.run;
    ctx.state.settleClaim = (answer) => {
      if (answer === undefined || answer.status < 200 || answer.status > 299) return claimed.release();
      const { status, contentType, bytes, value } = answer;
      const body = route.replayBody ? JSON.stringify(route.replayBody(value)) : bytes.toString("utf8");
      return claimed.keep({ status, contentType, body });
    };
    await next();
  }
}
