import type { Middleware } from "koa";
import type { Logger } from "pino";
import { Refusal } from "../domain/refusals.js";
import { StoreUnavailable } from "../store/errors.js";
import { ClientGone } from "./json-body.js";
import { HttpProblem } from "./problem.js";
import { problemForRefusal } from "./refusal-problem.js";

/**
 * First in the chain after the request id: every error, thrown or not, leaves as problem+json; a domain
 * refusal goes through problemForRefusal, the edge's one translation of them. Headers set by earlier steps
 * (rate-limit fields, request id) stay; an unexpected error is logged by name only (its message may hold
 * SQL or input) and answered with a bare 500. A request whose client went away while it was being read is
 * no error of the server's: logged at info and given status 499, which nobody receives.
 */
export function problemMiddleware(logger: Logger, onStoreError?: () => void): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof ClientGone) {
        // Nobody is left to answer: logged as what it is, and counted apart from the server's own faults.
        logger.info({ request_id: ctx.state.requestId }, "client aborted");
        ctx.status = CLIENT_CLOSED_REQUEST;
        return;
      }
      const problem = toProblem(error);
      if (error instanceof StoreUnavailable) onStoreError?.();
      if (problem.status >= 500 && problem.code === "internal_error") {
        const e = error as { name?: unknown; code?: unknown };
        logger.error({ request_id: ctx.state.requestId, err: { name: e?.name, code: e?.code } }, "unexpected error");
      }
      for (const [name, value] of Object.entries(problem.extras.headers ?? {})) ctx.set(name, value);
      ctx.status = problem.status;
      ctx.type = "application/problem+json";
      ctx.body = problem.body(ctx.state.requestId);
    }
  };
}

/** The status logged and counted for a request its client gave up on before it was read (as nginx does). */
export const CLIENT_CLOSED_REQUEST = 499;

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof Refusal) return problemForRefusal(error);
  if (error instanceof StoreUnavailable) {
    return new HttpProblem("unavailable", "The store is unavailable; retry shortly.", { retry_after: 1, headers: { "Retry-After": "1" } });
  }
  // Errors raised by Koa itself or its parsers carry an HTTP status; keep the client-side ones meaningful.
  const status = (error as { status?: unknown })?.status;
  if (status === 413) return new HttpProblem("payload_too_large");
  if (status === 415) return new HttpProblem("unsupported_media_type");
  if (status === 400 || status === 422) return new HttpProblem("malformed_json", "The request could not be read.");
  if (status === 404) return new HttpProblem("not_found");
  return new HttpProblem("internal_error", "An unexpected error occurred; quote the request id when asking for help.");
}
