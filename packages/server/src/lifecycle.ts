import type { Middleware } from "koa";
import { HttpProblem } from "./http/problem.js";

/**
 * Whether the process is shutting down; while it is, new requests are refused with 503. Counts the
 * requests being handled, so that a stop closes the store only once none is left (even one whose client
 * is gone).
 */
export class Lifecycle {
  draining = false;
  #handling = 0;

  /** Requests past the guard whose handling has not ended. */
  get handling(): number {
    return this.#handling;
  }

  guard(): Middleware {
    return async (ctx, next) => {
      if (this.draining) {
        ctx.set("Connection", "close");
        throw new HttpProblem("unavailable", "The server is shutting down; retry on another instance or shortly.", {
          retry_after: 1,
          headers: { "Retry-After": "1" },
        });
      }
      this.#handling++;
      try {
        await next();
      } finally {
        this.#handling--;
      }
    };
  }
}
