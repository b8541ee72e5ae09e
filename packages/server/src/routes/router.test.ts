import Koa from "koa";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../../test-support/serve.js";
import type { AppState } from "../http/state.js";
import type { RouteServices } from "./context.js";
import { defineRoute, type RouteContext } from "./route.js";
import { HttpProblem } from "../http/problem.js";
import { routeTable } from "./router.js";

// Routes without auth, so their guards need no services.
const answer = (text: string) => defineRoute({ method: "get", path: "/", summary: "", response: { status: 200, description: "" }, handler: () => (ctx) => void (ctx.body = text) });
const routes = [
  { ...answer("list"), path: "/api/v1/keys" },
  { ...answer("created"), method: "post" as const, path: "/api/v1/keys" },
  {
    ...answer(""),
    method: "delete" as const,
    path: "/api/v1/keys/:id",
    handler: () => (ctx: Koa.ParameterizedContext<AppState, RouteContext>) => void (ctx.body = `${ctx.state.route} ${ctx.params.id}`),
  },
  { ...answer("dotted"), path: "/v1.0/a+b" },
];

let close: () => Promise<void>;
let base: string;
beforeAll(async () => {
  const app = new Koa<AppState, RouteContext>();
  // What the app does with the router's refusals, in short: the status, and Allow as the body.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      ctx.status = error.status;
      ctx.body = error.status === 404 ? "unrouted" : `allow ${error.extras.headers?.Allow}`;
    }
  });
  app.use(routeTable(routes, {} as RouteServices));
  ({ base, close } = await serve(app.callback()));
});
afterAll(() => close());

async function send(method: string, path: string): Promise<string> {
  const res = await request(`${base}${path}`, { method: method as "GET" });
  return `${res.statusCode} ${await res.body.text()}`;
}

describe("the route table's router", () => {
  it("routes a path and method to its route, HEAD to GET's", async () => {
    expect(await send("GET", "/api/v1/keys")).toBe("200 list");
    expect(await send("POST", "/api/v1/keys")).toBe("200 created");
    expect(await send("HEAD", "/api/v1/keys")).toBe("200 ");
  });

  it("matches exactly: case, a trailing slash, another method and a lookalike path go on unrouted", async () => {
    for (const [method, path] of [["GET", "/API/V1/KEYS"], ["GET", "/api/v1/keys/"], ["GET", "/v1x0/a+b"], ["GET", "/v1.0/aab"]]) {
      expect(await send(method!, path!)).toBe("404 unrouted");
    }
    expect(await send("PUT", "/api/v1/keys")).toBe("405 allow HEAD, GET, POST");
    expect(await send("GET", "/v1.0/a+b")).toBe("200 dotted");
  });

  it("hands a parameter decoded, and as sent when it does not decode; an empty or split segment is no match", async () => {
    expect(await send("DELETE", "/api/v1/keys/key_%41b")).toBe("200 /api/v1/keys/:id key_Ab");
    expect(await send("DELETE", "/api/v1/keys/%E0%A4%A")).toBe("200 /api/v1/keys/:id %E0%A4%A");
    expect(await send("DELETE", "/api/v1/keys/")).toBe("404 unrouted");
    expect(await send("DELETE", "/api/v1/keys/a/b")).toBe("404 unrouted");
  });

  it("lists a path's methods for Allow, HEAD with GET, and none for an unknown path", async () => {
    expect(await send("DELETE", "/api/v1/keys")).toBe("405 allow HEAD, GET, POST");
    expect(await send("GET", "/api/v1/keys/key_1")).toBe("405 allow DELETE");
    expect(await send("DELETE", "/nowhere")).toBe("404 unrouted");
  });

  it("answers OPTIONS of a known path 200 with Allow, and of an unknown one 404", async () => {
    const known = await request(`${base}/api/v1/keys`, { method: "OPTIONS" });
    expect([known.statusCode, known.headers.allow, await known.body.text()]).toEqual([200, "HEAD, GET, POST", ""]);
    expect(await send("OPTIONS", "/nowhere")).toBe("404 unrouted");
  });
});
