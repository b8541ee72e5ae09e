import { Health, PROBLEM_CODES } from "@iccid/core";
import { HttpProblem } from "../http/problem.js";
import { NotReady } from "../services/readiness.js";
import { defineRoute, type Route } from "./route.js";

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function errorsPage(): string {
  const rows = Object.entries(PROBLEM_CODES)
    .map(([code, p]) => `<tr id="${code}"><td>${p.status}</td><td><code>${code}</code></td><td>${escapeHtml(p.title)}</td><td>${escapeHtml(p.when)}</td></tr>`)
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ICCID Lookup API errors</title></head>
<body><main><h1>ICCID Lookup API errors</h1>
<p>Errors are <a href="https://www.rfc-editor.org/rfc/rfc9457">RFC 9457</a> problem details
(<code>application/problem+json</code>) with <code>code</code>, <code>detail</code>, <code>request_id</code> and, for
input errors, <code>errors[]</code> with a JSON Pointer per field. 429 answers carry <code>Retry-After</code>.</p>
<table><thead><tr><th>Status</th><th>Code</th><th>Title</th><th>When</th></tr></thead>
<tbody>
${rows}
</tbody></table></main></body></html>`;
}

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

export const errorsPageRoute = defineRoute({
  method: "get",
  path: "/docs/errors",
  summary: "Human page listing every error code",
  response: { status: 200, description: "HTML" },
  handler: () => {
    const page = errorsPage();
    return (ctx) => {
      ctx.type = "text/html; charset=utf-8";
      ctx.set("Content-Security-Policy", "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
      ctx.body = page;
    };
  },
});
