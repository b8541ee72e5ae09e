import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HttpProblem } from "../http/problem.js";
import { defineRoute, type Route } from "./route.js";

// The page's HTML, CSS and compiled browser modules live in dist/web (built by `pnpm build` from web/).
// This file sits in src/routes when tests run from sources and in dist/routes when built: from either
// place, ../../dist/web is the same folder.
const WEB_DIR = fileURLToPath(new URL("../../dist/web/", import.meta.url));

/** Strict: only our own files, nothing inline, no framing, no form posts or fetches elsewhere. */
export const ACCOUNT_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

interface Asset {
  type: string;
  body: Buffer;
}

let loaded: Map<string, Asset> | undefined;

/** The built page, read once per process: a request never touches the disk, only files present then are served. */
function webAssets(): Map<string, Asset> {
  if (loaded) return loaded;
  loaded = new Map<string, Asset>();
  if (!existsSync(WEB_DIR)) return loaded;
  for (const name of readdirSync(WEB_DIR)) {
    const type = TYPES[extname(name)];
    if (type) loaded.set(name, { type, body: readFileSync(join(WEB_DIR, name)) });
  }
  return loaded;
}

export const accountPageRoutes: Route[] = [
  defineRoute({
    method: "get",
    path: "/",
    summary: "Redirects to the account page",
    response: { status: 302, description: "To /account" },
    handler: () => (ctx) => {
      ctx.redirect("/account");
    },
  }),
  defineRoute({
    method: "get",
    path: "/account",
    summary: "The account page: sign in, manage API keys, see usage (HTML)",
    response: { status: 200, description: "HTML, with a strict Content-Security-Policy" },
    handler: () => {
      const page = webAssets().get("account.html");
      return (ctx) => {
        // A server started from sources without a build still answers its API; only the page is missing.
        if (!page) throw new HttpProblem("unavailable", "The account page is not built: run `pnpm build`.");
        ctx.set("Content-Security-Policy", ACCOUNT_PAGE_CSP);
        ctx.set("X-Frame-Options", "DENY");
        ctx.type = page.type;
        ctx.body = page.body;
      };
    },
  }),
  defineRoute({
    method: "get",
    path: "/account/assets/:file",
    summary: "The account page's scripts and styles",
    response: { status: 200, description: "JavaScript or CSS" },
    problems: ["not_found"],
    handler: () => {
      const assets = webAssets();
      return (ctx) => {
        const file = ctx.params.file!;
        const asset = file === "account.html" ? undefined : assets.get(file);
        if (!asset) throw new HttpProblem("not_found", "No such asset.");
        ctx.set("Content-Security-Policy", ACCOUNT_PAGE_CSP);
        ctx.type = asset.type;
        ctx.body = asset.body;
      };
    },
  }),
];
