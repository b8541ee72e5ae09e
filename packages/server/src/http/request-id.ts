import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Keeps the client's X-Request-Id when it is sane, else makes one; every response carries it. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const sent = ctx.get("X-Request-Id");
    const id = SANE_REQUEST_ID.test(sent) ? sent : `req_${randomUUID().replace(/-/g, "")}`;
    ctx.state.requestId = id;
    ctx.set("X-Request-Id", id);
    await next();
  };
}
