import type { Middleware } from "koa";
import type { Logger } from "pino";

/** One structured line per request. Only method, route path and status: never headers, bodies or queries. */
export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path.length > 200 ? `${ctx.path.slice(0, 200)}…` : ctx.path,
          status: ctx.status,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        "request",
      );
    }
  };
}
