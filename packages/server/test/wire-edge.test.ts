import { once } from "node:events";
import { createConnection } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerMetrics } from "../src/metrics/prometheus.js";
import { exchange, responses, startTestServer, type RawResponse, type TestServer } from "../test-support/index.js";
import { eventually } from "./eventually.js";
import { call } from "./http.js";

// What the HTTP edge answers, logs and counts for requests that never reach a route's handler whole: those
// Node itself would refuse, a method a path does not have, a body its client gave up on.

let server: TestServer;
let metrics: ServerMetrics;
const lines: string[] = [];
beforeAll(async () => {
  metrics = new ServerMetrics({ processMetrics: false });
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(...String(chunk).trim().split("\n")), done()) });
  server = await startTestServer({ logTo: sink, metrics });
});
afterAll(async () => server?.close());

/** The log lines written so far, parsed. */
const logged = (): Array<Record<string, unknown>> => lines.map((l) => JSON.parse(l));

/** The value of one sample of the server's Prometheus text, or undefined when absent. */
async function sample(name: string): Promise<number | undefined> {
  const line = (await metrics.registry.metrics()).split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

function expectProblem(r: RawResponse, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(r.headers["cache-control"]).toBe("no-store");
  expect(r.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
  expect(r.body).toMatchObject({ status, code, request_id: r.headers["x-request-id"] });
}

describe("refusals Node would write bare", () => {
  it("an HTTP/1.1 request without Host is a 400 problem with a request id, and the connection closes", async () => {
    const [answer, ...more] = responses(await exchange(server.url, "GET /healthz HTTP/1.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    expectProblem(answer!, 400, "bad_request");
    expect(answer!.body.detail).toMatch(/Host/);
    expect(answer!.headers.connection).toBe("close");
    expect(more).toEqual([]);
    // HTTP/1.0 has no Host rule.
    const [old] = responses(await exchange(server.url, "GET /healthz HTTP/1.0\r\n\r\n"));
    expect(old!.status).toBe(200);
  });

  it("an Expect other than 100-continue is a 400 problem with a request id, logged and counted like any answer", async () => {
    const [answer] = responses(await exchange(server.url, "GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n"));
    expectProblem(answer!, 400, "bad_request");
    expect(answer!.body.detail).toMatch(/Expect/);
    expect(answer!.headers.connection).toBe("close");
    expect(logged()).toContainEqual(expect.objectContaining({ msg: "request", request_id: answer!.headers["x-request-id"], status: 400 }));
  });
});

describe("logs and metrics", () => {
  it("a 405 is logged and counted under its route's path", async () => {
    const r = await call(server.url, "GET", "/api/v1/iccid/lookup");
    expect(r.status).toBe(405);
    expect(logged()).toContainEqual(expect.objectContaining({ request_id: r.headers["x-request-id"], path: "/api/v1/iccid/lookup", status: 405 }));
    expect(await sample('iccid_http_requests_total{route="/api/v1/iccid/lookup",method="GET",status="405"}')).toBe(1);
    expect(await sample('iccid_http_requests_total{route="unmatched",method="GET",status="405"}')).toBeUndefined();
  });

  it("an upload its client aborts is logged at info as a client abort and counted as 499, not as a server error", async () => {
    const socket = createConnection({ port: Number(new URL(server.url).port), host: "127.0.0.1" });
    await once(socket, "connect");
    socket.write(
      `POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.owner.apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: aborted-upload\r\n\r\n{`,
    );
    // One byte of the hundred announced, and the client goes away (before or while the handler reads it).
    socket.destroy();

    await eventually(async () => expect(logged()).toContainEqual(expect.objectContaining({ request_id: "aborted-upload", msg: "request" })));
    const mine = logged().filter((l) => l.request_id === "aborted-upload");
    expect(mine).toContainEqual(expect.objectContaining({ level: 30, msg: "client aborted" }));
    expect(mine).toContainEqual(expect.objectContaining({ msg: "request", path: "/api/v1/iccid/lookup", status: 499 }));
    expect(mine.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(await sample('iccid_http_requests_total{route="/api/v1/iccid/lookup",method="POST",status="499"}')).toBe(1);
    expect(await sample('iccid_http_requests_total{route="/api/v1/iccid/lookup",method="POST",status="500"}')).toBeUndefined();
  });
});
