import Router, { type RouterContext } from "@koa/router";
import { METHODS } from "node:http";
import type { Middleware } from "koa";
import { HttpProblem } from "../http/problem.js";
import type { AppState, DeclaredAnswer } from "../http/state.js";
import type { RouteServices } from "./context.js";
import { guards } from "./guards.js";
import type { Route, RouteContext } from "./route.js";

/**
 * The route table routed by @koa/router: a path matches exactly (case and trailing slash count), a `:name`
 * segment matches one non-empty segment, handed to the handler decoded in `ctx.params`; GET also answers
 * HEAD. Each route runs, in order: its entry (the route template for logs and metrics, and the answer the
 * table declares: its status, set now so a handler only sets the body, and its CSV form), its guards, its
 * handler. A request no route answers ends here: the router's `allowedMethods` finds the methods of a known
 * path (in table order, HEAD with GET), which is 405 with Allow, logged and counted under the path's
 * route (an OPTIONS request is answered 200 with Allow); anything else is 404.
 */
export function routeTable(routes: readonly Route[], s: RouteServices): Middleware<AppState> {
  // Every method Node parses is one the router knows, so none is answered 501.
  const router = new Router<AppState, RouteContext>({ sensitive: true, strict: true, methods: METHODS });
  for (const route of routes) {
    const { status, csv } = route.response;
    const declared: DeclaredAnswer = { status, csv: csv?.rows };
    const entry: Middleware<AppState, RouteContext> = (ctx, next) => {
      ctx.state.route = route.path;
      ctx.state.declared = declared;
      ctx.status = declared.status;
      return next();
    };
    router[route.method](routerPath(route.path), entry, ...guards(route, s), route.handler(s));
  }
  const routed = router.routes() as Middleware<AppState>;
  const allowed = router.allowedMethods() as Middleware<AppState>;
  return (ctx, next) => routed(ctx, () => allowed(ctx, async () => {}).then(() => unrouted(ctx as RouterContext<AppState>)));
}

/** After allowedMethods: a known path (it set Allow) is 405 unless the request was OPTIONS; anything else 404. */
function unrouted(ctx: RouterContext<AppState>): void {
  const allow = ctx.response.get("Allow") as string | undefined;
  if (!allow) throw new HttpProblem("not_found", "No such route.");
  ctx.state.route = String(ctx.matched![0]!.path);
  if (ctx.status === 405) throw new HttpProblem("method_not_allowed", `${ctx.method} is not allowed here.`, { headers: { Allow: allow } });
}

/** The path in path-to-regexp's syntax: its text as it is (reserved characters escaped), each `:name` a parameter. */
function routerPath(path: string): string {
  return path.replace(/[{}()[\]+?!*\\]/g, "\\$&");
}
