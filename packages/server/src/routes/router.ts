import Router, { type RouterContext } from "@koa/router";
import type { Middleware } from "koa";
import type { DeclaredAnswer } from "../http/answer-writer.js";
import { jsonEncoding } from "../http/json-encoding.js";
import { HttpProblem } from "../http/problem.js";
import type { AppState } from "../http/state.js";
import type { RouteServices } from "./context.js";
import { guards } from "./guards.js";
import type { Route, RouteContext } from "./route.js";

/**
 * The route table routed by @koa/router: a path matches exactly (case and trailing slash count), a `:name`
 * segment matches one non-empty segment, handed to the handler decoded in `ctx.params`; GET also answers
 * HEAD. Each route runs, in order: its entry (the route template for logs and metrics, and the answer the
 * table declares: its status, set now so a handler only sets the body, and its body's encoder, for the
 * answer writer), its guards, its handler. Anything not routed goes on to `next`.
 */
export function routeTable(routes: readonly Route[], s: RouteServices): Middleware<AppState> {
  const router = new Router<AppState, RouteContext>({ sensitive: true, strict: true });
  for (const route of routes) {
    const { status, schema, csv } = route.response;
    const declared: DeclaredAnswer = { status, encode: schema && jsonEncoding(schema), csv: csv?.rows };
    const entry: Middleware<AppState, RouteContext> = (ctx, next) => {
      ctx.state.route = route.path;
      ctx.state.declared = declared;
      ctx.status = declared.status;
      return next();
    };
    router[route.method](routerPath(route.path), entry, ...guards(route, s), route.handler(s));
  }
  return router.routes() as Middleware<AppState>;
}

/** The path in path-to-regexp's syntax: its text as it is (reserved characters escaped), each `:name` a parameter. */
function routerPath(path: string): string {
  return path.replace(/[{}()[\]+?!*\\]/g, "\\$&");
}

/**
 * After the router, for a request no route answered: a known path with another method is 405 with Allow
 * (the path's methods in table order, HEAD with GET), logged and counted under the path's route; anything
 * else is 404.
 */
export function unrouted(): Middleware<AppState> {
  return (ctx) => {
    const matched = (ctx as unknown as RouterContext<AppState>).matched ?? [];
    const allowed = [...new Set(matched.flatMap((layer) => layer.methods))];
    if (allowed.length > 0) {
      ctx.state.route = String(matched[0]!.path);
      throw new HttpProblem("method_not_allowed", `${ctx.method} is not allowed here.`, { headers: { Allow: allowed.join(", ") } });
    }
    throw new HttpProblem("not_found", "No such route.");
  };
}
