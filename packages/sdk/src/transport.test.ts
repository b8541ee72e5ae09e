import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APITimeoutError, APIUserAbortError } from "./errors.js";
import { exchange, readBytes, readText, type AttemptLimits, type HttpRequest } from "./transport.js";

// exchange against a real HTTP server: what a mock dispatcher does not do (bodies in pieces, a stall
// after the headers, a byte-order mark, repeated fields as they come off the wire).

let server: Server;
let origin: string;
const agent = new Agent({ keepAliveTimeout: 1_000 });
const limits = (ms: number): AttemptLimits => ({ ms, scope: "attempt", reportMs: ms, attempt: 1 });
const get = (path: string): HttpRequest => ({ method: "GET", origin, path, headers: { accept: "application/json" } });

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/pieces") {
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res.setHeader("x-seen", ["one", "two"]);
      res.write("\ufeff{\"name\":");
      setTimeout(() => res.end('"Ümlaut"}'), 20);
    } else if (req.url === "/stall") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"half":');
    } else {
      res.writeHead(503, { "content-type": "text/plain" });
      res.end("down");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("exchange", () => {
  it("reads a body sent in pieces whole, skipping a byte-order mark as text, with every header field", async () => {
    const response = await exchange(agent, "test", get("/pieces"), limits(5_000), undefined);
    expect({ ...response, body: readText(response.body) }).toMatchObject({ status: 200, body: '{"name":"Ümlaut"}', setCookie: ["a=1", "b=2"] });
    expect(response.headers).toMatchObject({ "x-seen": "one, two", "set-cookie": "a=1, b=2" });
    expect(readBytes(response.body).toString("utf8")).toBe('\ufeff{"name":"Ümlaut"}');
  });

  it("hands an error status over with its body", async () => {
    const response = await exchange(agent, "test", get("/down"), limits(5_000), undefined);
    expect({ status: response.status, text: readText(response.body) }).toEqual({ status: 503, text: "down" });
  });

  it("times out a server that stalls after the headers, mid-body", async () => {
    const error = await exchange(agent, "test", get("/stall"), limits(100), undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as APITimeoutError).message).toBe("the request timed out after 100 ms talking to test (1 attempt)");
  });

  it("aborts mid-body when the caller's signal fires", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 50);
    const error = await exchange(agent, "test", get("/stall"), limits(5_000), controller.signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(((error as APIUserAbortError).cause as Error).message).toBe("stop");
  });
});
