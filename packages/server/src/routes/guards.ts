import type { ProblemCode } from "@iccid/core";
import { bearer, csrfGuard, jsonBody, keyOrSession, requireSession } from "../http/guards.js";
import { idempotency } from "../http/idempotency.js";
import type { AppState } from "../http/state.js";
import type { RouteServices } from "./context.js";
import type { Route, RouteHandler } from "./route.js";

// What each guard, and reading a body or a query, can refuse with: the document lists these for every
// route that has them, so a route declares only the problems of its own making.
const API_KEY_PROBLEMS: ProblemCode[] = [
  "missing_api_key",
  "invalid_api_key",
  "revoked_api_key",
  "expired_api_key",
  "insufficient_scope",
  "no_active_subscription",
  "rate_limited",
];
const SESSION_PROBLEMS: ProblemCode[] = ["not_authenticated"];
const CSRF_PROBLEMS: ProblemCode[] = ["csrf_rejected"];
const BODY_PROBLEMS: ProblemCode[] = ["payload_too_large", "unsupported_media_type", "invalid_input", "malformed_json"];
const QUERY_PROBLEMS: ProblemCode[] = ["invalid_input"];
const BUDGET_PROBLEMS: ProblemCode[] = ["rate_limited"];
const IDEMPOTENCY_PROBLEMS: ProblemCode[] = ["invalid_idempotency_key", "idempotency_key_in_use", "idempotency_key_reused"];
/** Any route: a bug or a broken store, and the store being unreachable or the server shutting down. */
const EVERY_ROUTE_PROBLEMS: ProblemCode[] = ["internal_error", "unavailable"];

/** The middleware before a route's handler, in the order they run: the CSRF check precedes the session lookup. */
export function guards(route: Route, s: RouteServices): RouteHandler[] {
  const chain: RouteHandler[] = [];
  if (route.csrf) chain.push(csrfGuard());
  switch (route.auth.kind) {
    case "apiKey":
      chain.push(route.auth.session ? keyOrSession(s.apiKeys, s.sessions, s.store, s.limiter, route.auth) : bearer(s.apiKeys, s.limiter, route.auth));
      break;
    case "session":
      chain.push(requireSession(s.sessions));
      break;
    case "none":
      break;
  }
  const accountOf = route.auth.kind === "apiKey" ? (state: AppState) => state.payer.account.id : (state: AppState) => state.session.account.id;
  if (route.budget === "usage_reads") {
    chain.push(async (ctx, next) => {
      await s.usageReads.take(accountOf(ctx.state));
      await next();
    });
  }
  // After the key or session: no body is read for a request that is refused anyway.
  if (route.body) chain.push(jsonBody(s.settings.bodyLimitBytes));
  // After the rate limit: a replay is a request like any other, and consumes it. After the body: a request is compared by it.
  if (route.idempotency) chain.push(idempotency(s.idempotentRequests, route.idempotency, accountOf));
  return chain;
}

/** Every problem a route can answer: its guards', its input's, its own, then those any route can. */
export function routeProblems(route: Route): ProblemCode[] {
  const auth = { none: [], apiKey: API_KEY_PROBLEMS, session: SESSION_PROBLEMS }[route.auth.kind];
  // A lookup route that takes the page's session also answers what the session guard and its CSRF rule do.
  const withSession = route.auth.kind === "apiKey" && route.auth.session === true;
  return [
    ...new Set([
      ...auth,
      ...(withSession ? [...SESSION_PROBLEMS, ...CSRF_PROBLEMS] : []),
      ...(route.csrf ? CSRF_PROBLEMS : []),
      ...(route.body ? BODY_PROBLEMS : []),
      ...(route.query ? QUERY_PROBLEMS : []),
      ...(route.budget ? BUDGET_PROBLEMS : []),
      ...(route.idempotency ? IDEMPOTENCY_PROBLEMS : []),
      ...route.problems,
      ...EVERY_ROUTE_PROBLEMS,
    ]),
  ];
}
