import { PROBLEM_CODES } from "@iccid/core";
import { defineRoute } from "./route.js";

// GET /docs/errors, where every problem's `type` points: the problem codes as a page people read, in the
// account page's stylesheet (the only thing it loads), a table on wide screens and one card per code on
// a phone. Nothing inline and nothing from elsewhere: its CSP allows our own stylesheet and no more.

export const ERRORS_PAGE_CSP = "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function errorsPage(): string {
  const rows = Object.entries(PROBLEM_CODES)
    .map(
      ([code, p]) =>
        `<tr id="${code}"><td data-label="Status">${p.status}</td><th scope="row" data-label="Code"><code>${code}</code></th>` +
        `<td data-label="Title">${escapeHtml(p.title)}</td><td data-label="When">${escapeHtml(p.when)}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>API errors · ICCID Lookup</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/account/assets/account.css"></head>
<body>
<header class="top-bar"><span class="brand">ICCID Lookup</span><a class="top-link" href="/account">Account</a></header>
<main><h1>API errors</h1>
<section class="card">
<p>Errors are RFC 9457 problem details (<code>application/problem+json</code>) with <code>code</code>,
<code>detail</code>, <code>request_id</code> and, for input errors, <code>errors[]</code>: one entry per field, with a
JSON Pointer to it and the rule it broke. 429 answers carry <code>Retry-After</code>.</p>
<table class="codes-table"><thead><tr><th scope="col">Status</th><th scope="col">Code</th><th scope="col">Title</th><th scope="col">When</th></tr></thead>
<tbody>
${rows}
</tbody></table></section></main></body></html>`;
}

export const errorsPageRoute = defineRoute({
  method: "get",
  path: "/docs/errors",
  summary: "Human page listing every error code",
  response: { status: 200, description: "HTML" },
  handler: () => {
    const page = errorsPage();
    return (ctx) => {
      ctx.type = "text/html; charset=utf-8";
      ctx.set("Content-Security-Policy", ERRORS_PAGE_CSP);
      ctx.body = page;
    };
  },
});
