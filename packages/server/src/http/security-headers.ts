import type { Middleware } from "koa";

/** Headers every answer carries, set before anything else can fail. */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set("Cache-Control", "no-store");
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Referrer-Policy", "no-referrer");
    await next();
  };
}
