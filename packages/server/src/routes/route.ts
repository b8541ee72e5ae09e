import type { KeyScope, ProblemCode } from "@iccid/core";
import type { Middleware } from "koa";
import type { z } from "zod";
import type { CsvForm } from "../http/batch-answer.js";
import type { IdempotentRoute } from "../http/idempotency.js";
import type { AppState } from "../http/state.js";
import type { RouteServices } from "./context.js";

export type HttpMethod = "get" | "post" | "delete";

/** Who may call an endpoint, and with what credential. */
export type RouteAuth =
  | { kind: "none" }
  /**
   * A Bearer API key with `scope`, its active subscription and the rate limit; `consume: false` only reads
   * the rate state. With `session`, a request that sends no Authorization header but the account page's
   * session cookie is taken too (the lookups the page makes): under the CSRF rule, held to the same
   * subscription check and rate limit, and charged to the account under the page's own usage id.
   */
  | { kind: "apiKey"; consume: boolean; scope: KeyScope; session?: boolean }
  /** The account page's session cookie. */
  | { kind: "session" };

/** A schema of the wire contract: one registered in @iccid/core's `apiSchemas`, documented by its id. */
export type WireSchema = z.ZodType;

export interface RouteResponse {
  status: number;
  description: string;
  /** Absent for answers without a JSON body (204, redirects, HTML, the account page's files). */
  schema?: WireSchema;
  /** The same answer as CSV, chosen by the request's Accept: its rows, and what the OpenAPI document says of it. */
  csv?: { description: string; rows: CsvForm<never> };
}

/** What a routed request's context has besides Koa's: its path parameters, decoded. */
export interface RouteContext {
  params: Record<string, string>;
}

/** The handler after the guards; `ctx.state` holds what the route's auth put there (grant or session). */
export type RouteHandler = Middleware<AppState, RouteContext>;

/**
 * One endpoint, declared once: the router registers it, the OpenAPI document describes it, and the
 * contract test walks it. Adding an endpoint is adding one of these to the table.
 */
export interface Route {
  method: HttpMethod;
  /** In router syntax: `:name` is a path parameter (documented as `{name}`). */
  path: string;
  summary: string;
  description?: string;
  auth: RouteAuth;
  /** Refuse cross-site browser requests before anything else: for session-changing routes. */
  csrf: boolean;
  /**
   * A budget of the account's spent after auth, before the handler: "usage_reads" for the usage reports,
   * which read many rows and so have a per-account budget apart from the plan's request rate.
   */
  budget?: "usage_reads";
  /**
   * Requests may carry an Idempotency-Key: the same request within 24 hours is answered again, not run
   * again (http/idempotency.ts). Its problems are added to the route's.
   */
  idempotency?: IdempotentRoute;
  /** A JSON request body; `required: false` means no body at all is accepted too. */
  body?: { schema: WireSchema; required: boolean };
  /** The query string, one parameter per field of this object schema. */
  query?: WireSchema;
  response: RouteResponse;
  /**
   * The problems only this endpoint answers. Those of its auth, CSRF guard, body and query, and the
   * internal_error/unavailable every route can answer, are added from the fields above.
   */
  problems: readonly ProblemCode[];
  /** Builds the handler once per app, so per-app work (reading files, rendering pages) is done at start. */
  handler: (s: RouteServices) => RouteHandler;
}

/** A Route with the usual defaults: no auth, no CSRF guard, no problems of its own. */
export function defineRoute(
  spec: Omit<Route, "auth" | "csrf" | "problems"> & Partial<Pick<Route, "auth" | "csrf" | "problems">>,
): Route {
  return { auth: { kind: "none" }, csrf: false, problems: [], ...spec };
}

/** A path parameter in a route's path: `:name`. */
export const PATH_PARAM = /:(\w+)/g;

/** The names of the path parameters, in order: `/api/v1/keys/:id` → ["id"]. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((m) => m[1]!);
}

/** The path as OpenAPI writes it: `/api/v1/keys/:id` → `/api/v1/keys/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(PATH_PARAM, "{$1}");
}
