import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export const newRequestId = () => `req_${randomUUID().replace(/-/g, "")}`;

/** The headers every answer carries besides its own, also the ones written to a bare socket. */
export const BASIC_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
} as const;

/**
 * What every answer carries, set before anything else can fail: X-Request-Id (the client's own when it is
 * sane, else a new one), Cache-Control: no-store and the content-sniffing guards.
 */
export function wireBasics(): Middleware {
  return async (ctx, next) => {
    const sent = ctx.get("X-Request-Id");
    const id = SANE_REQUEST_ID.test(sent) ? sent : newRequestId();
    ctx.state.requestId = id;
    ctx.set({ "X-Request-Id": id, ...BASIC_HEADERS });
    await next();
  };
}
