import { randomUUID } from "node:crypto";
import { formatCount } from "@iccid/core";
import type { IncomingMessage } from "node:http";
import type { Middleware, ParameterizedContext } from "koa";
import type { Logger } from "pino";
import type { RateLimitState } from "../domain/rate-limit-state.js";
import {
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  InsufficientScope,
  InvalidCredentials,
  InvalidInput,
  KeyNotRollable,
  KeyRejected,
  NotFound,
  QuotaExceeded,
  RateLimited,
  Refusal,
  SubscriptionInactive,
  type KeyRejection,
  type Missing,
  type RateBudget,
  type RollRefusal,
} from "../domain/refusals.js";
import { StoreUnavailable } from "../store/errors.js";
import { rfc3339 } from "../time.js";
import { ClientGone } from "./guards.js";
import { HttpProblem, jsonPointer } from "./problem.js";
import type { AppState } from "./state.js";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A request id a client may choose itself: short, and of characters safe in a log line and a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** A new request id: `req_` and a version-4 UUID's 32 hex digits, 122 of its 128 bits random. */
export const newRequestId = (): string => `req_${randomUUID().replaceAll("-", "")}`;

/** The headers every answer carries besides its own, also the ones written to a bare socket. */
const BASIC_FIELDS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

/** The fields every answer of a request carries besides its own: X-Request-Id, the basics, and the account's RateLimit fields once its key was checked. */
export function commonFields(requestId: string, rateLimit?: RateLimitState): Record<string, string> {
  return { "X-Request-Id": requestId, ...BASIC_FIELDS, ...(rateLimit && rateLimitFields(rateLimit)) };
}

/** The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): "default" is the plan's request rate, "usage" the usage-read budget. */
function rateLimitFields(s: RateLimitState, policy: "default" | "usage" = "default"): Record<string, string> {
  return { "RateLimit-Policy": `"${policy}";q=${s.limit};w=${s.windowSeconds}`, RateLimit: `"${policy}";r=${s.remaining};t=${s.resetSeconds}` };
}

/**
 * The one place answers are written from. It gives the request its id (the client's own X-Request-Id when
 * sane), and writes the answer the rest of the chain decided for Koa to send:
 * - an error becomes problem+json (toProblem); an unexpected one is logged by name only (its message may
 *   hold SQL or input) and answered with a bare 500. Headers set before it (RateLimit fields) stay;
 * - a plain object or array body becomes its JSON text (Koa typed it JSON when it was set); a body that
 *   cannot be encoded is a bug, logged by name and answered 500;
 * - the common fields go on, the answer's own headers winning over them (a refusal's RateLimit fields for
 *   another budget); `Connection: close` when what is left unread of the request's body may be over the
 *   body limit (`leavesUnread`).
 *
 * Last, at info level, the request's one log line: method, route (`/api/v1/keys/:id`; `-` when no route
 * matched), status and time; never headers, bodies, queries or the path as sent (a secret pasted into a
 * URL must not reach the log).
 */
export function answerWriter(logger: Logger, { bodyLimitBytes, onStoreError }: { bodyLimitBytes: number; onStoreError?: () => void }): Middleware<AppState> {
  const logRequests = logger.isLevelEnabled("info");
  return async (ctx, next) => {
    const started = logRequests ? process.hrtime.bigint() : 0n;
    const sent = ctx.get("X-Request-Id");
    ctx.state.requestId = SANE_REQUEST_ID.test(sent) ? sent : newRequestId();
    try {
      try {
        await next();
      } catch (error) {
        writeProblem(ctx, error, logger, onStoreError);
      }
      if (ctx.res.headersSent) return;
      const body: unknown = ctx.body;
      if (typeof body === "object" && body !== null && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== "function") {
        try {
          ctx.body = JSON.stringify(body);
        } catch (error) {
          logger.error({ request_id: ctx.state.requestId, err: { name: (error as Error)?.name } }, "answer not encodable");
          setProblem(ctx, internalError());
          ctx.body = JSON.stringify(ctx.body);
        }
      }
      const fields = commonFields(ctx.state.requestId, ctx.state.rateLimit);
      for (const name in fields) if (!ctx.res.hasHeader(name)) ctx.res.setHeader(name, fields[name]!);
      if (leavesUnread(ctx.req, bodyLimitBytes)) ctx.res.setHeader("Connection", "close");
    } finally {
      if (logRequests) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info({ request_id: ctx.state.requestId, method: ctx.method, path: ctx.state.route ?? "-", status: ctx.status, ms }, "request");
      }
    }
  };
}

/**
 * Whether the connection ends after the answer, for a body not read in full by then (a refusal, or a route
 * that reads none): when it declares more than the body limit, or no length (chunked). Node reads a rest
 * declared within the limit after the answer, and the connection is kept: that costs no more than a body
 * the server takes, and closing with bytes unread would have the kernel reset the connection, discarding
 * the answers still queued for the client (earlier pipelined ones, charged, among them).
 */
function leavesUnread(req: IncomingMessage, bodyLimitBytes: number): boolean {
  if (req.complete) return false;
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  return !(declared <= bodyLimitBytes);
}

function writeProblem(ctx: ParameterizedContext<AppState>, error: unknown, logger: Logger, onStoreError?: () => void): void {
  if (error instanceof ClientGone) {
    // Nobody is left to answer: logged as what it is, and counted apart from the server's own faults with
    // the status nginx gives a request its client gave up on.
    logger.info({ request_id: ctx.state.requestId }, "client aborted");
    ctx.status = 499;
    return;
  }
  if (error instanceof StoreUnavailable) onStoreError?.();
  const problem = toProblem(error);
  if (problem.code === "internal_error") {
    const e = error as { name?: unknown; code?: unknown };
    logger.error({ request_id: ctx.state.requestId, err: { name: e?.name, code: e?.code } }, "unexpected error");
  }
  setProblem(ctx, problem);
}

function setProblem(ctx: ParameterizedContext<AppState>, problem: HttpProblem): void {
  ctx.set(problem.headers);
  ctx.status = problem.status;
  ctx.type = "application/problem+json";
  ctx.body = problem.body(ctx.state.requestId);
}

const internalError = () => new HttpProblem("internal_error", "An unexpected error occurred; quote the request id when asking for help.");

// RFC 6750: a request without a key gets the bare challenge; a key that was sent and failed gets
// error="invalid_token", so a client can tell "send a key" from "this key will never work".
const CHALLENGE = 'Bearer realm="iccid"';
const INVALID_TOKEN = 'Bearer realm="iccid", error="invalid_token"';

const KEY_DETAILS: Record<KeyRejection, string> = {
  missing: "Send your API key as Authorization: Bearer <key>.",
  malformed: "The API key is malformed.",
  unknown: "The API key is not known.",
  revoked: "The API key was revoked.",
  expired: "The API key has expired.",
};

const ROLL_DETAILS: Record<RollRefusal, string> = {
  revoked: "The API key was revoked; create a new one instead.",
  expired: "The API key has expired; create a new one instead.",
  rolled_already: "The API key was rolled already; roll the key that replaced it instead.",
};

// Never the looked-up value itself: the client sent it and gains nothing from having it echoed.
const MISSING_DETAILS: Record<Missing, string> = {
  account: "No such account.",
  plan: "No such plan.",
  api_key: "No such API key.",
};

const BUDGET_WORDS: Record<RateBudget, string> = {
  requests: "requests",
  usage_reads: "usage reads",
  sign_in: "sign-in attempts",
};

/**
 * An error as the problem it is answered with; the HTTP edge's one translation of domain refusals: status
 * (from the problem code), detail words for API clients, members such as `errors[]` with JSON Pointers,
 * and the headers that belong to the answer (WWW-Authenticate, Retry-After, RateLimit fields).
 */
function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof Refusal) return refusalProblem(error);
  if (error instanceof StoreUnavailable) return new HttpProblem("unavailable", "The store is unavailable; retry shortly.", { retry_after: 1 });
  return internalError();
}

function refusalProblem(refusal: Refusal): HttpProblem {
  if (refusal instanceof KeyRejected) {
    const challenge = refusal.reason === "missing" ? CHALLENGE : INVALID_TOKEN;
    return new HttpProblem(refusal.code, KEY_DETAILS[refusal.reason], { headers: { "WWW-Authenticate": challenge } });
  }
  if (refusal instanceof InsufficientScope) {
    // RFC 6750 §3.1: the scope the token lacks, in the challenge too.
    return new HttpProblem(refusal.code, `The API key lacks the ${refusal.scope} scope.`, {
      required_scope: refusal.scope,
      headers: { "WWW-Authenticate": `Bearer realm="iccid", error="insufficient_scope", scope="${refusal.scope}"` },
    });
  }
  if (refusal instanceof KeyNotRollable) return new HttpProblem(refusal.code, ROLL_DETAILS[refusal.reason]);
  if (refusal instanceof SubscriptionInactive) return new HttpProblem(refusal.code, `The account's subscription is ${refusal.status}.`);
  if (refusal instanceof InvalidCredentials) return new HttpProblem(refusal.code, "The email or password is wrong.");
  if (refusal instanceof RateLimited) {
    // The account's own budgets also show their RateLimit fields.
    const { budget, retryAfterSeconds, state } = refusal;
    const words = BUDGET_WORDS[budget];
    const detail = state ? `Over ${formatCount(state.limit)} ${words} per ${state.windowSeconds} s.` : `Too many ${words}; try again later.`;
    const headers = state && rateLimitFields(state, budget === "usage_reads" ? "usage" : "default");
    return new HttpProblem(refusal.code, detail, { retry_after: retryAfterSeconds, headers });
  }
  if (refusal instanceof QuotaExceeded) {
    return new HttpProblem(refusal.code, refusal.message, { retry_after: refusal.retryAfterSeconds, resets_at: rfc3339(refusal.resetsAt) });
  }
  if (refusal instanceof InvalidInput) {
    const errors = refusal.issues.map((issue) => ({ pointer: jsonPointer(issue.field), code: issue.code, detail: issue.detail }));
    return new HttpProblem(refusal.code, refusal.message, { errors });
  }
  if (refusal instanceof IdempotencyKeyReused) {
    return new HttpProblem(refusal.code, "This Idempotency-Key was used in the last 24 hours with another body; use a new key for a new request.");
  }
  if (refusal instanceof IdempotencyKeyInUse) {
    const detail = "A request with this Idempotency-Key is still being answered; retry after Retry-After.";
    return new HttpProblem(refusal.code, detail, { retry_after: refusal.retryAfterSeconds });
  }
  if (refusal instanceof NotFound) return new HttpProblem(refusal.code, MISSING_DETAILS[refusal.missing]);
  // A refusal without wording of its own here still answers with its code; its message is domain words.
  return new HttpProblem(refusal.code, refusal.message);
}
