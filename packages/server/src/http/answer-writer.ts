import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Middleware, ParameterizedContext } from "koa";
import type { Logger } from "pino";
import type { RateLimitState } from "../domain/rate-limit-state.js";
import { Refusal } from "../domain/refusals.js";
import { StoreUnavailable } from "../store/errors.js";
import type { CsvForm } from "./batch-answer.js";
import { ClientGone } from "./json-body.js";
import { HttpProblem } from "./problem.js";
import { rateLimitFields } from "./rate-limit-fields.js";
import { problemForRefusal } from "./refusal-problem.js";
import type { AppState } from "./state.js";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** What the route table says a route answers when it succeeds: its status, and its CSV form if it has one (a batch's). */
export interface DeclaredAnswer {
  status: number;
  csv?: CsvForm<never>;
}

/** The status logged and counted for a request its client gave up on before it was read (as nginx does). */
export const CLIENT_CLOSED_REQUEST = 499;

/** A request id a client may choose itself: short, and of characters safe in a log line and a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** A new request id: `req_` and 128 random bits in hex. */
export const newRequestId = (): string => `req_${randomBytes(16).toString("hex")}`;

/** The headers every answer carries besides its own, also the ones written to a bare socket. */
const BASIC_FIELDS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

/** The fields every answer of a request carries besides its own: X-Request-Id, the basics, and the account's RateLimit fields once its key was checked. */
export function commonFields(requestId: string, rateLimit?: RateLimitState): Record<string, string> {
  return { "X-Request-Id": requestId, ...BASIC_FIELDS, ...(rateLimit && rateLimitFields(rateLimit)) };
}

/**
 * The one place answers are written from. It gives the request its id (the client's own X-Request-Id when
 * sane), lets the rest of the chain decide the answer, and writes it for Koa to send:
 * - an error, thrown or not, becomes problem+json: a domain refusal through problemForRefusal, the edge's
 *   one translation of them; an unexpected error is logged by name only (its message may hold SQL or
 *   input) and answered with a bare 500. Headers set before it (RateLimit fields) stay. A request whose
 *   client went away while it was being read is no error of the server's: logged at info and given
 *   status 499, which nobody receives;
 * - a plain object or array body becomes its JSON text (JSON.stringify), with its type; a body that cannot
 *   be encoded at all is a bug, logged by name and answered 500;
 * - the common fields go on, the answer's own headers winning over them (a refusal's RateLimit fields for
 *   another budget).
 *
 * Last, at info level, the request's one log line: method, route (`/api/v1/keys/:id`; `-` when no route
 * matched), status and time; never headers, bodies, queries or the path as sent (a secret pasted into a
 * URL must not reach the log).
 */
export function answerWriter(logger: Logger, onStoreError?: () => void): Middleware<AppState> {
  const logRequests = logger.isLevelEnabled("info");
  return async (ctx, next) => {
    const started = logRequests ? process.hrtime.bigint() : 0n;
    const sent = ctx.get("X-Request-Id");
    ctx.state.requestId = SANE_REQUEST_ID.test(sent) ? sent : newRequestId();
    try {
      await write(ctx, next, logger, onStoreError);
    } finally {
      if (logRequests) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info({ request_id: ctx.state.requestId, method: ctx.method, path: ctx.state.route ?? "-", status: ctx.status, ms }, "request");
      }
    }
  };
}

async function write(ctx: ParameterizedContext<AppState>, next: () => Promise<unknown>, logger: Logger, onStoreError?: () => void): Promise<void> {
  try {
    await next();
  } catch (error) {
    writeProblem(ctx, error, logger, onStoreError);
  }
  if (ctx.res.headersSent) return;
  encode(ctx, logger);
  addFields(ctx.res, commonFields(ctx.state.requestId, ctx.state.rateLimit));
}

function writeProblem(ctx: ParameterizedContext<AppState>, error: unknown, logger: Logger, onStoreError?: () => void): void {
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
  ctx.set(problem.extras.headers ?? {});
  ctx.status = problem.status;
  ctx.type = "application/problem+json";
  ctx.body = problem.body(ctx.state.requestId);
}

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof Refusal) return problemForRefusal(error);
  if (error instanceof StoreUnavailable) {
    return new HttpProblem("unavailable", "The store is unavailable; retry shortly.", { retry_after: 1, headers: { "Retry-After": "1" } });
  }
  // Errors raised by Koa itself carry an HTTP status; keep the client-side ones meaningful.
  const status = (error as { status?: unknown })?.status;
  if (status === 413) return new HttpProblem("payload_too_large");
  if (status === 415) return new HttpProblem("unsupported_media_type");
  if (status === 400 || status === 422) return new HttpProblem("malformed_json", "The request could not be read.");
  if (status === 404) return new HttpProblem("not_found");
  return internalError();
}

const internalError = () => new HttpProblem("internal_error", "An unexpected error occurred; quote the request id when asking for help.");

/** A plain object or array body becomes its JSON text; any other body (bytes, text, a stream, none) stays as it is. */
function encode(ctx: ParameterizedContext<AppState>, logger: Logger): void {
  const body: unknown = ctx.body;
  if (typeof body !== "object" || body === null || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === "function") return;
  try {
    const json = JSON.stringify(body);
    if (!ctx.res.hasHeader("Content-Type")) ctx.set("Content-Type", JSON_CONTENT_TYPE);
    ctx.body = json;
  } catch (error) {
    logger.error({ request_id: ctx.state.requestId, err: { name: (error as Error)?.name } }, "answer not encodable");
    const problem = internalError();
    ctx.status = problem.status;
    ctx.set("Content-Type", "application/problem+json");
    ctx.body = JSON.stringify(problem.body(ctx.state.requestId));
  }
}

function addFields(res: ServerResponse, fields: Record<string, string>): void {
  for (const name in fields) if (!res.hasHeader(name)) res.setHeader(name, fields[name]!);
}
