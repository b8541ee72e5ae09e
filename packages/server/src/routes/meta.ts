import { Health } from "@iccid/core";
import { HttpProblem } from "../http/problem.js";
import { NotReady } from "../services/readiness.js";
import { defineRoute, type Route } from "./route.js";

export const healthRoutes: Route[] = [
  defineRoute({
    method: "get",
    path: "/healthz",
    summary: "Liveness for load balancers",
    response: { status: 200, description: "Up", schema: Health },
    handler: (s) => async (ctx) => {
      try {
        await s.store.ping();
      } catch {
        throw new HttpProblem("unavailable", "The store is unreachable.");
      }
      ctx.body = { status: "ok" };
    },
  }),
  // Readiness, unlike the liveness answer above: 503 while the store cannot take a write (a held lock,
  // a full disk, PostgreSQL out of reach) or its SQLite file is gone, the detail saying which; 200 again
  // by itself once it can. A silent Redis is 200 `degraded`, with the detail.
  defineRoute({
    method: "get",
    path: "/readyz",
    summary: "Readiness for load balancers: 503 while the store cannot take a write, 200 again once it can (degraded while Redis does not answer)",
    response: { status: 200, description: "Ready", schema: Health },
    handler: (s) => async (ctx) => {
      try {
        ctx.body = await s.readiness.check();
      } catch (error) {
        const detail = error instanceof NotReady ? error.message : "The store cannot take a write now.";
        throw new HttpProblem("unavailable", detail, { retry_after: 1, headers: { "Retry-After": "1" } });
      }
    },
  }),
];

export const apiDocumentRoute = defineRoute({
  method: "get",
  path: "/api/v1/openapi.json",
  summary: "This document",
  response: { status: 200, description: "OpenAPI 3.1" },
  handler: (s) => (ctx) => {
    ctx.type = "application/json";
    ctx.body = s.apiDocument;
  },
});
