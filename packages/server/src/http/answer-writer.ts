import type { ServerResponse } from "node:http";
import type { Context, Middleware, ParameterizedContext } from "koa";
import type { Logger } from "pino";
import type { RateLimitState } from "../domain/rate-limit-state.js";
import type { CsvForm } from "./csv-form.js";
import type { Encode } from "./json-encoding.js";
import { HttpProblem } from "./problem.js";
import { rateLimitFields } from "./rate-limit-fields.js";
import { requestIdOf } from "./request-id.js";
import type { AppState } from "./state.js";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** What the route table says a route answers when it succeeds: its status, and its body's encoder. */
export interface DeclaredAnswer {
  status: number;
  /** From the route's response schema; absent for answers without a JSON body. */
  encode?: Encode;
  /** The route's CSV form, for the answer writers that offer one (a batch's). */
  csv?: CsvForm<never>;
}

/** An answer as the answer writer is about to send it: its status, type, bytes, and the body before encoding. */
export interface WrittenAnswer {
  status: number;
  contentType: string;
  bytes: Buffer;
  value: unknown;
}

/** The headers every answer carries besides its own, also the ones written to a bare socket. */
const BASIC_FIELDS = ["Cache-Control", "no-store", "X-Content-Type-Options", "nosniff", "Referrer-Policy", "no-referrer"] as const;

/**
 * The fields every answer of a request carries besides its own, as name, value, name, value…:
 * X-Request-Id, the basics, and the account's RateLimit fields once its key was checked.
 */
export function commonFields(requestId: string, rateLimit?: RateLimitState): string[] {
  const fields = ["X-Request-Id", requestId, ...BASIC_FIELDS];
  if (rateLimit) fields.push(...rateLimitFields(rateLimit));
  return fields;
}

/**
 * The one place answers are written from. It gives the request its id, lets the rest of the chain decide
 * the answer (a route's handler, or the problem middleware), then writes it for Koa to send: a JSON body
 * encoded once into bytes (by the route's encoder when it is the route's own answer, else by
 * JSON.stringify), its type and length, and the common fields, which the answer's own headers win over (a
 * refusal's RateLimit fields for another budget). A request claimed by its Idempotency-Key has its answer
 * kept for replays (or its key released) here, before the answer goes out. A body that cannot be encoded at all is a bug: logged by
 * name and answered 500.
 */
export function answerWriter(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.requestId = requestIdOf(ctx.get("X-Request-Id"));
    let written: WrittenAnswer | undefined;
    try {
      await next();
      if (ctx.res.headersSent) return;
      const value: unknown = ctx.body;
      encodeAnswer(ctx, logger);
      if (ctx.state.settleClaim) written = writtenAnswer(ctx, value);
    } finally {
      if (ctx.state.settleClaim) await settleClaim(ctx, written, logger);
    }
    addFields(ctx.res, commonFields(ctx.state.requestId, ctx.state.rateLimit));
  };
}

/** Encodes the answer the chain decided (answer-writer's rules above). */
function encodeAnswer(ctx: ParameterizedContext<AppState>, logger: Logger): void {
  try {
    encodeBody(ctx);
  } catch (error) {
    logger.error({ request_id: ctx.state.requestId, err: { name: (error as Error)?.name } }, "answer not encodable");
    const problem = new HttpProblem("internal_error", "An unexpected error occurred; quote the request id when asking for help.");
    ctx.status = problem.status;
    ctx.set("Content-Type", "application/problem+json");
    ctx.body = Buffer.from(JSON.stringify(problem.body(ctx.state.requestId)));
  }
}

/** The encoded answer as an Idempotency-Key's claim keeps it, with `value`, its body before encoding. */
function writtenAnswer(ctx: ParameterizedContext<AppState>, value: unknown): WrittenAnswer {
  return { status: ctx.status, contentType: ctx.response.get("Content-Type"), bytes: bodyBytes(ctx.body), value };
}

/** Settles an Idempotency-Key's claim; a store that fails here leaves it pending (409 until abandoned), logged. */
async function settleClaim(ctx: ParameterizedContext<AppState>, written: WrittenAnswer | undefined, logger: Logger): Promise<void> {
  try {
    await ctx.state.settleClaim!(written);
  } catch (error) {
    logger.error({ request_id: ctx.state.requestId, err: { name: (error as Error)?.name } }, "idempotent answer not kept");
  }
}

/** A plain object or array body becomes its JSON bytes; any other body (bytes, text, none) stays as it is. */
function encodeBody(ctx: Context & { state: AppState }): void {
  const body: unknown = ctx.body;
  if (typeof body !== "object" || body === null || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === "function") return;
  const declared = ctx.state.declared;
  const encode = declared?.encode && ctx.status === declared.status ? declared.encode : JSON.stringify;
  if (!ctx.res.hasHeader("Content-Type")) ctx.set("Content-Type", JSON_CONTENT_TYPE);
  ctx.body = Buffer.from(encode(body));
}

function bodyBytes(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(typeof body === "string" ? body : "");
}

function addFields(res: ServerResponse, fields: readonly string[]): void {
  for (let i = 0; i < fields.length; i += 2) if (!res.hasHeader(fields[i]!)) res.setHeader(fields[i]!, fields[i + 1]!);
}
