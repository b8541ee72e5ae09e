import type { Context } from "koa";

/**
 * Answers with a JSON body encoded once. Given an object, Koa stringifies it, scans the string for its
 * byte length and the socket encodes it again; for a 1000-item batch (~360 KB) those two passes were a
 * fifth of the request's CPU time in a profile.
 */
export function sendJson(ctx: Context, value: unknown): void {
  // Set as a header rather than through ctx.type, which looks the type up in the MIME table each time.
  ctx.set("Content-Type", "application/json; charset=utf-8");
  ctx.body = Buffer.from(JSON.stringify(value));
}
