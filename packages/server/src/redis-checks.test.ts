import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkRedis, RedisMisconfigured } from "./redis-checks.js";

// A peer that answers something other than Redis is a misconfiguration, never an outage, however its
// answer and its close arrive: an HTTP server in this process answers 400 and closes at once.

let http: Server;
beforeAll(async () => {
  http = createServer((_req, res) => res.end("hello")).listen(0, "127.0.0.1");
  await once(http, "listening");
});
afterAll(() => http.close());

it("names an HTTP server as not Redis, every time", async () => {
  const url = `redis://127.0.0.1:${(http.address() as AddressInfo).port}`;
  for (let i = 0; i < 50; i++) {
    const error = await checkRedis({ urls: [url], cluster: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisMisconfigured);
    expect((error as Error).message).toBe(`${url} does not answer as Redis does: is it Redis?`);
  }
});
