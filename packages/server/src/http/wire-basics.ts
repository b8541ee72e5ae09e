import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * What every answer carries, set before anything else can fail: X-Request-Id (the client's own when it is
 * sane, else a new one), Cache-Control: no-store and the content-sniffing guards.
 */
export function wireBasics(): Middleware {
  return async (ctx, next) => {
    const sent = ctx.get("X-Request-Id");
    const id = SANE_REQUEST_ID.test(sent) ? sent : `req_${randomUUID().replace(/-/g, "")}`;
    ctx.state.requestId = id;
    ctx.set({
      "X-Request-Id": id,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    });
    await next();
  };
}
