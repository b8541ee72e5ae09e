import { bodyParser } from "@koa/bodyparser";
import type { Context, Middleware } from "koa";
import type { z } from "zod";
import { InvalidInput } from "../domain/refusals.js";
import { fieldIssues, WIRE_PARSE } from "../domain/schema-issues.js";
import { HttpProblem, jsonPointer } from "./problem.js";

/**
 * The guard of a route with a JSON body, after its auth: @koa/bodyparser reads the body into
 * `ctx.request.body`, its text into `ctx.request.rawBody`. 415 for a body of another media type (which
 * the parser would pass over), 413 past `limitBytes` (before reading when Content-Length says so, else
 * as the body passes it; the rest is read and dropped, so the answer reaches the client), 422
 * `malformed_json` when it does not parse. Any JSON value is taken (the schema names what is wrong with
 * it); no body, or one of whitespace only, leaves `ctx.request.body` undefined. A client gone before its
 * body arrived whole is ClientGone.
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = bodyParser({ enableTypes: ["json"], jsonStrict: false, jsonLimit: limitBytes, onError: (error, ctx) => refuse(error, ctx, limitBytes) });
  return (ctx, next) => {
    const length = ctx.request.length;
    if (!((length !== undefined && length > 0) || ctx.get("Transfer-Encoding") !== "")) return next();
    if (!ctx.is("application/json")) throw new HttpProblem("unsupported_media_type", "The body must be JSON, sent with Content-Type: application/json.");
    if (ctx.req.destroyed) throw new ClientGone();
    return parse(ctx, () => {
      if (ctx.request.rawBody.trim() === "") ctx.request.body = undefined;
      return next();
    });
  };
}

/** The parser's errors as the API answers them; a body of whitespace only (which does not parse) is no body. */
function refuse(error: Error & { status?: number; body?: unknown }, ctx: Context, limitBytes: number): void {
  if (error.status === 413) {
    ctx.req.unpipe();
    ctx.req.resume();
    throw new HttpProblem("payload_too_large", `The body is over the ${Math.round(limitBytes / 1024)} KiB limit.`);
  }
  if (error.status === 415) throw new HttpProblem("unsupported_media_type", "The body's Content-Encoding is not one this server reads.");
  if (typeof error.body === "string") {
    if (error.body.trim() !== "") throw new HttpProblem("malformed_json", "The body is not valid JSON.");
    ctx.request.rawBody = error.body;
    return;
  }
  throw ctx.req.complete && !ctx.req.destroyed ? error : new ClientGone();
}

/** The client closed its connection before its request arrived in full: nobody is left to answer. */
export class ClientGone extends Error {
  constructor() {
    super("the client closed the connection before sending its request in full");
    this.name = "ClientGone";
  }
}

/** Parses a value with a wire schema, or refuses with `InvalidInput` naming every offending field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: "body" | "query" = "body"): z.output<S> {
  const result = schema.safeParse(value, WIRE_PARSE);
  if (result.success) return result.data;
  const issues = fieldIssues(result.error.issues);
  const first = issues[0]!;
  // An issue about the whole value (no path) is named after what was read: "the body", "the query".
  const field = first.field.length === 0 ? `the ${what}` : jsonPointer(first.field).slice(1).replace(/\//g, ".");
  throw new InvalidInput([first, ...issues.slice(1)], `${field}: ${first.detail}`);
}
