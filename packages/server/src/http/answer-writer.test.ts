import { Writable } from "node:stream";
import Koa from "koa";
import { pino } from "pino";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../../test-support/serve.js";
import { z } from "zod";
import type { RouteServices } from "../routes/context.js";
import { defineRoute } from "../routes/route.js";
import { routeTable } from "../routes/router.js";
import { answerWriter, newRequestId } from "./answer-writer.js";
import type { AppState } from "./state.js";

// A route of each kind the writer meets: one with a schema and a status other than 200, one whose body
// cannot be written as JSON at all, and one without a body.
const Made = z.object({ id: z.string(), name: z.string() });
const routes = [
  defineRoute({
    method: "post",
    path: "/made",
    summary: "",
    response: { status: 201, description: "", schema: Made },
    handler: () => (ctx) => void (ctx.body = { id: "m_1", name: "é\u2028" }),
  }),
  defineRoute({
    method: "get",
    path: "/broken",
    summary: "",
    response: { status: 200, description: "" },
    handler: () => (ctx) => void (ctx.body = { id: "m_1", count: 1n }),
  }),
  defineRoute({ method: "delete", path: "/made", summary: "", response: { status: 204, description: "" }, handler: () => () => {} }),
];

const lines: Array<Record<string, unknown>> = [];
const log = new Writable({ write: (chunk, _enc, done) => void (lines.push(JSON.parse(String(chunk))), done()) });
let close: () => Promise<void>;
let base: string;
beforeAll(async () => {
  const logger = pino({ level: "info" }, log);
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(answerWriter(logger, { bodyLimitBytes: 1024 }));
  app.use(routeTable(routes, {} as RouteServices));
  ({ base, close } = await serve(app.callback()));
});
afterAll(() => close());

async function send(method: string, path: string) {
  const res = await request(`${base}${path}`, { method: method as "GET" });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

const COMMON = { "cache-control": "no-store", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };

describe("the answer writer", () => {
  it("answers the status the route table declares and the body as JSON, with the common fields", async () => {
    const r = await send("POST", "/made");
    expect(r.status).toBe(201);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.text).toBe(JSON.stringify({ id: "m_1", name: "é\u2028" }));
    expect(r.headers["content-length"]).toBe(String(Buffer.byteLength(r.text)));
    expect(r.headers).toMatchObject({ ...COMMON, "x-request-id": expect.stringMatching(/^req_[0-9a-f]{32}$/) });
    const none = await send("DELETE", "/made");
    expect([none.status, none.text]).toEqual([204, ""]);
    expect(none.headers).toMatchObject(COMMON);
  });

  it("writes a problem of the same route as a problem, with the same common fields", async () => {
    const r = await send("PUT", "/made");
    expect(r.status).toBe(405);
    expect(r.headers["content-type"]).toBe("application/problem+json");
    expect(r.headers.allow).toBe("POST, DELETE");
    expect(JSON.parse(r.text)).toMatchObject({ code: "method_not_allowed", request_id: r.headers["x-request-id"] });
    expect(r.headers).toMatchObject(COMMON);
  });

  it("answers a body that cannot be written as JSON with a logged 500 problem, never a bare error", async () => {
    const r = await send("GET", "/broken");
    expect(r.status).toBe(500);
    expect(r.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(r.text)).toMatchObject({ code: "internal_error", request_id: r.headers["x-request-id"] });
    expect(r.headers).toMatchObject(COMMON);
    expect(lines).toContainEqual(expect.objectContaining({ request_id: r.headers["x-request-id"], msg: "answer not encodable", err: { name: "TypeError" } }));
  });
});

describe("newRequestId", () => {
  it("makes req_ and 32 hex digits, never the same twice", () => {
    const ids = Array.from({ length: 1000 }, newRequestId);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
