import { PROBLEM_CODES } from "@iccid/core";
import { buildOpenApi } from "../openapi.js";
import { HttpProblem } from "../http/problem.js";
import type { ApiRouter, RouteServices } from "./context.js";

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

export function metaRoutes(router: ApiRouter, s: RouteServices, version: string): void {
  const openapi = JSON.stringify(buildOpenApi(version));
  const page = errorsPage();

  router.get("/healthz", async (ctx) => {
    try {
      await s.store.ping();
    } catch {
      throw new HttpProblem("unavailable", "The store is unreachable.");
    }
    ctx.body = { status: "ok" };
  });

  // Readiness, unlike the liveness answer above: 503 while the store cannot take a write (a held lock,
  // a full disk, PostgreSQL out of reach), 200 again by itself once it can.
  router.get("/readyz", async (ctx) => {
    try {
      await s.readiness.check();
    } catch {
      throw new HttpProblem("unavailable", "The store cannot take a write now.", { retry_after: 1, headers: { "Retry-After": "1" } });
    }
    ctx.body = { status: "ok" };
  });

  router.get("/api/v1/openapi.json", (ctx) => {
    ctx.type = "application/json";
    ctx.body = openapi;
  });

  router.get("/docs/errors", (ctx) => {
    ctx.type = "text/html; charset=utf-8";
    ctx.set("Content-Security-Policy", "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    ctx.body = page;
  });
}
