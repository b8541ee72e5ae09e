import type { Middleware } from "koa";
import { HttpProblem } from "./problem.js";

const SAFE_FETCH_SITES = new Set(["same-origin", "none"]);

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
