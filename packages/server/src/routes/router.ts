import { Router } from "@koa/router";
import type { AppState } from "../http/state.js";
import type { RouteServices } from "./context.js";
import { guards } from "./guards.js";
import type { Route } from "./route.js";

/** A router answering `routes`: each with its guards (CSRF, then auth) before its handler. */
export function routerFor(routes: readonly Route[], s: RouteServices): Router<AppState> {
  // Paths match exactly: /API/V1/USAGE and /api/v1/usage/ are not the usage route.
  const router = new Router<AppState>({ sensitive: true, strict: true });
  for (const route of routes) router.register(route.path, [route.method], [...guards(route, s), route.handler(s)]);
  return router;
}
