import type { Middleware } from "koa";
import { HttpProblem } from "./http/problem.js";

/** Whether the process is shutting down; while it is, new requests are refused with 503. */
export class Lifecycle {
  draining = false;

  guard(): Middleware {
    return async (ctx, next) => {
      if (this.draining) {
        ctx.set("Connection", "close");
        throw new HttpProblem("unavailable", "The server is shutting down; retry on another instance or shortly.", {
          retry_after: 1,
          headers: { "Retry-After": "1" },
        });
      }
      await next();
    };
  }
}
