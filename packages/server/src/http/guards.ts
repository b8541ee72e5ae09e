import { bodyParser } from "@koa/bodyparser";
import type { KeyScope } from "@iccid/core";
import type { Context, Middleware, ParameterizedContext } from "koa";
import type { z } from "zod";
import { InvalidInput, SubscriptionInactive } from "../domain/refusals.js";
import { fieldIssues, WIRE_PARSE } from "../domain/schema-issues.js";
import type { AccountRateLimiter } from "../limits/rate-limit.js";
import type { ApiKeys } from "../services/api-keys.js";
import type { Sessions } from "../services/sessions.js";
import { webPagePayer } from "../services/web-page-payer.js";
import type { AccountStore, Payer } from "../store/store.js";
import { HttpProblem, jsonPointer } from "./problem.js";
import type { AppState } from "./state.js";

// The guards a route's handler runs behind (routes/guards.ts chains them): who the request is from (a
// Bearer API key, the account page's session cookie, or either on the lookup routes), the CSRF rule of
// the requests that ride on the cookie, and its JSON body; then the schema its handler reads it with.

/**
 * The API key a request presents in its Authorization header: `Bearer <key>`, or HTTP Basic with the key
 * as the user name (`curl -u KEY:`), whose password is not read. Anything else, or no header, presents
 * the key "" (missing_api_key).
 */
function presentedKey(authorization: string): string {
  const bearer = BEARER.exec(authorization);
  if (bearer) return bearer[1]!;
  const basic = BASIC.exec(authorization);
  if (!basic) return "";
  const pair = Buffer.from(basic[1]!, "base64").toString("utf8");
  const colon = pair.indexOf(":");
  return colon === -1 ? pair : pair.slice(0, colon);
}

const BEARER = /^Bearer[ ]+(\S*)\s*$/i;
const BASIC = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})\s*$/i;

const SESSION_COOKIE = "iccid_session";

const SAFE_FETCH_SITES = new Set(["same-origin", "none"]);

/**
 * Admits a known account's request: its subscription must be active, then it consumes a request of the
 * account's rate limit (`consume: false` only reads the rate state). The rate state goes on every answer the
 * account gets, a refusal's included (over the rate, the RateLimited refusal carries it);
 * `ctx.state.payer` is set only when the request is admitted.
 */
async function admitAccount(ctx: ParameterizedContext<AppState>, limiter: AccountRateLimiter, payer: Payer, consume: boolean): Promise<void> {
  const accountId = payer.account.id;
  if (payer.subscription.status !== "active") {
    ctx.state.rateLimit = await limiter.peek(accountId, payer.plan);
    throw new SubscriptionInactive(payer.subscription.status);
  }
  ctx.state.rateLimit = consume ? await limiter.consume(accountId, payer.plan) : await limiter.peek(accountId, payer.plan);
  ctx.state.payer = payer;
}

/** The key guard (a Bearer key, or HTTP Basic with the key as user): key (known, working, with the route's scope), then admitAccount. */
export function bearer(apiKeys: ApiKeys, limiter: AccountRateLimiter, { consume, scope }: { consume: boolean; scope: KeyScope }): Middleware<AppState> {
  return async (ctx, next) => {
    const payer = await apiKeys.authenticate(presentedKey(ctx.get("Authorization")), scope);
    await admitAccount(ctx, limiter, payer, consume);
    await next();
  };
}

/** Requires a live web session (the key endpoints). */
export function requireSession(sessions: Sessions): Middleware<AppState> {
  return async (ctx, next) => {
    const active = await sessions.resolve(ctx.cookies.get(SESSION_COOKIE));
    if (!active) throw new HttpProblem("not_authenticated", "Sign in first: there is no session, or it expired.");
    ctx.state.session = active;
    await next();
  };
}

/**
 * Refuses cross-site state-changing requests that ride on the session cookie: a browser says where a
 * request comes from in Sec-Fetch-Site and Origin; a non-browser client sends neither and is not at risk.
 */
export function csrfGuard(): Middleware {
  return async (ctx, next) => {
    const site = ctx.get("Sec-Fetch-Site");
    const origin = ctx.get("Origin");
    if ((site !== "" && !SAFE_FETCH_SITES.has(site)) || (origin !== "" && origin !== `${ctx.protocol}://${ctx.host}`)) {
      throw new HttpProblem("csrf_rejected", "Cross-site requests may not change session state.");
    }
    await next();
  };
}

/**
 * The lookup routes' guard: a Bearer key, or else the account page's session cookie. A request with an
 * Authorization header, or without a session cookie, takes the Bearer guard as any API call. One with
 * only the cookie is held to the other session routes' CSRF rule, then to admitAccount as a key is, and
 * is charged to the account under the page's own usage id.
 */
export function keyOrSession(
  apiKeys: ApiKeys,
  sessions: Sessions,
  store: Pick<AccountStore, "getSubscription" | "getPlan">,
  limiter: AccountRateLimiter,
  auth: { consume: boolean; scope: KeyScope },
): Middleware<AppState> {
  const byKey = bearer(apiKeys, limiter, auth);
  const csrf = csrfGuard();
  const session = requireSession(sessions);
  return async (ctx, next) => {
    if (ctx.get("Authorization") !== "" || ctx.cookies.get(SESSION_COOKIE) === undefined) return byKey(ctx, next);
    await csrf(ctx, () =>
      session(ctx, async () => {
        await admitAccount(ctx, limiter, await webPagePayer(store, ctx.state.session.account), auth.consume);
        await next();
      }),
    );
  };
}

/** Sets or clears the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure on HTTPS. */
export function setSessionCookie(ctx: Context, secret: string | null, expiresAt?: number): void {
  ctx.cookies.set(SESSION_COOKIE, secret ?? "", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: ctx.secure,
    overwrite: true,
    ...(secret === null ? { expires: new Date(0), maxAge: 0 } : { expires: new Date(expiresAt!) }),
  });
}

/**
 * The body guard of a route with a JSON body, after its auth: @koa/bodyparser reads the body into
 * `ctx.request.body`, its text into `ctx.request.rawBody`. 415 for a body of another media type (which
 * the parser would pass over), 413 past `limitBytes` (before reading when Content-Length says so, else
 * as the body passes it; the rest is not read, and the answer closes the connection only when that rest
 * is itself over the limit or of unknown length: `leavesUnread` in answer-writer.ts), 422
 * `malformed_json` when it does not parse. Any JSON value is taken (the schema names what is wrong with
 * it); no body, or one of whitespace only, leaves `ctx.request.body` undefined. A client gone before its
 * body arrived whole is ClientGone.
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = bodyParser({ enableTypes: ["json"], jsonStrict: false, jsonLimit: limitBytes, onError: (error, ctx) => refuseBody(error, ctx, limitBytes) });
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
function refuseBody(error: Error & { status?: number; body?: unknown }, ctx: Context, limitBytes: number): void {
  if (error.status === 413) {
    // Not parsed further; whether the rest is read or the connection closed is answer-writer.ts's rule.
    ctx.req.unpipe();
    throw new HttpProblem("payload_too_large", `The body is over the ${Math.round(limitBytes / 1024)} KiB limit.`);
  }
  if (error.status === 415) throw new HttpProblem("unsupported_media_type", "The body's Content-Encoding is not one this server reads.");
  if (typeof error.body === "string") {
    if (error.body.trim() !== "") throw new HttpProblem("malformed_json", "The body is not valid JSON.");
    ctx.request.rawBody = error.body;
    return;
  }
  if (!ctx.req.complete || ctx.req.destroyed) throw new ClientGone();
  // The body arrived but not as it was announced (its length).
  if (error.status === 400) throw new HttpProblem("malformed_json", "The request could not be read.");
  throw error;
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
