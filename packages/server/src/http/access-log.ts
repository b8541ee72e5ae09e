import type { Middleware } from "koa";
import type { AppState } from "./state.js";
import type { Logger } from "pino";

/**
 * One structured line per request. Only method, route (`/api/v1/keys/:id`; `-` when no route matched) and
 * status: never headers, bodies, queries or the path as sent.
 */
export function accessLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          // The route's template, never the path as sent: a secret pasted into a URL must not reach the log.
          path: ctx.state.route ?? "-",
          status: ctx.status,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        "request",
      );
    }
  };
}
