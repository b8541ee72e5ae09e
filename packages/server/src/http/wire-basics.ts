import { randomFillSync } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Middleware } from "koa";
import { rateLimitFields } from "./rate-limit-fields.js";
import type { AppState } from "./state.js";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

// Random bytes drawn 4 KB at a time: a request id is then 16 of them in hex, a quarter of the cost of a
// UUID with its dashes taken out.
const entropy = Buffer.alloc(4096);
let drawn = entropy.length;

/** A new request id: `req_` and 128 random bits in hex. */
export function newRequestId(): string {
  if (drawn === entropy.length) {
    randomFillSync(entropy);
    drawn = 0;
  }
  drawn += 16;
  return `req_${entropy.toString("hex", drawn - 16, drawn)}`;
}

/** The headers every answer carries besides its own, also the ones written to a bare socket. */
export const BASIC_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
} as const;

const BASIC_FIELDS = Object.entries(BASIC_HEADERS).flat();

/**
 * The fields every answer of this request carries besides its own, as name, value, name, value…:
 * X-Request-Id, the basics, and the account's RateLimit fields once its key was checked.
 */
export function commonFields(state: AppState): string[] {
  const fields = ["X-Request-Id", state.requestId, ...BASIC_FIELDS];
  if (state.rateLimit) fields.push(...rateLimitFields(state.rateLimit));
  return fields;
}

/**
 * Gives the request its id (the client's own X-Request-Id when it is sane, else a new one) and puts the
 * common fields on whatever answer the request gets. They are written once, with the answer: the JSON
 * answers write them with their own head in one go (json-response.ts); every other answer gets them here,
 * after the answer was decided, alongside its own headers, which win (a refusal's RateLimit fields for
 * another budget). Setting them one by one as the request went was a tenth of a lookup's CPU time.
 */
export function wireBasics(): Middleware<AppState> {
  return async (ctx, next) => {
    const sent = ctx.get("X-Request-Id");
    ctx.state.requestId = SANE_REQUEST_ID.test(sent) ? sent : newRequestId();
    try {
      await next();
    } finally {
      addCommonFields(ctx.res, ctx.state);
    }
  };
}

function addCommonFields(res: ServerResponse, state: AppState): void {
  if (res.headersSent) return;
  const fields = commonFields(state);
  for (let i = 0; i < fields.length; i += 2) if (!res.hasHeader(fields[i]!)) res.setHeader(fields[i]!, fields[i + 1]!);
}
