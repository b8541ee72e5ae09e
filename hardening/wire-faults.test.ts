import { Writable } from "node:stream";
import { exchange, responses, startTestServer, type RawResponse, type TestServer } from "@iccid/server/testing";
import { afterEach, describe, expect, it } from "vitest";
import { nthIccid, send } from "./support.js";

// Malformed HTTP and odd paths against a real server, on raw connections where a client library would
// refuse to send the case.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectProblem(r: RawResponse, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers["content-type"]).toBe("application/problem+json");
  expect(r.headers["cache-control"]).toBe("no-store");
  expect(r.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
  expect(r.body).toMatchObject({ status, code, request_id: r.headers["x-request-id"] });
}

describe("wire faults", () => {
  it("a valid lookup pipelined before a malformed request is answered (and charged) before the 400", async () => {
    server = await startTestServer();
    const body = JSON.stringify({ iccid: nthIccid(7) });
    const lookup = `POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.owner.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const [answer, refusal] = responses(await exchange(server.url, lookup + "GARBAGE / HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(answer!.status).toBe(200);
    expect(answer!.body.iccid).toBe(nthIccid(7));
    expectProblem(refusal!, 400, "bad_request");
    const usage = await send(server.url, "GET", "/api/v1/usage", { authorization: `Bearer ${server.owner.apiKey}` });
    expect(usage.body.totals).toEqual({ requests: 1, lookups: 1 });
  });

  it("what Node's parser refuses is a problem with X-Request-Id and Cache-Control: 400, 431, 413", async () => {
    server = await startTestServer();
    expectProblem(responses(await exchange(server.url, "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"))[0]!, 400, "bad_request");
    const huge = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Filler: ${"a".repeat(20_000)}\r\n\r\n`;
    expectProblem(responses(await exchange(server.url, huge))[0]!, 431, "headers_too_large");
    const extension = (auth: string) =>
      `POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n1;ext=${"e".repeat(20_000)}\r\n{\r\n`;
    // Refused whether the handler is already reading the body (a valid key) or not.
    expectProblem(responses(await exchange(server.url, extension(`Authorization: Bearer ${server.owner.apiKey}\r\n`)))[0]!, 413, "payload_too_large");
    expectProblem(responses(await exchange(server.url, extension("")))[0]!, 413, "payload_too_large");
  });

  it("a chunked body over the limit is answered 413, not reset", async () => {
    server = await startTestServer({ bodyLimitBytes: 1024 });
    const chunk = "a".repeat(4096);
    const head = `POST /api/v1/iccid/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.owner.apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const chunks = Array.from({ length: 16 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join("");
    const [answer] = responses(await exchange(server.url, head, chunks, "0\r\n\r\n"));
    expectProblem(answer!, 413, "payload_too_large");
  });

  it("paths match exactly: another case or a trailing slash is not the route", async () => {
    server = await startTestServer();
    const auth = { authorization: `Bearer ${server.owner.apiKey}` };
    expect((await send(server.url, "GET", "/api/v1/usage", auth)).status).toBe(200);
    for (const path of ["/API/V1/USAGE", "/api/v1/usage/", "/Healthz", "/healthz/"]) {
      const r = await send(server.url, "GET", path, auth);
      expect(r.status, path).toBe(404);
      expect(r.body.code).toBe("not_found");
    }
  });

  it("a secret pasted into a URL path never reaches the access log", async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    server = await startTestServer({ logTo: sink });
    const key = server.owner.apiKey;
    for (const path of [`/${key}`, `/api/v1/keys/${key}`, `/api/v1/iccid/lookup/${key}`, `/api/v1/usage?key=${key}`]) await send(server.url, "GET", path);
    await send(server.url, "DELETE", `/api/v1/keys/${key}`);
    await send(server.url, "GET", "/healthz");
    const log = lines.join("");
    expect(log).toMatch(/"path":"\/healthz"/);
    expect(log).toMatch(/"path":"\/api\/v1\/keys\/:id"/);
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(6, 20));
  });
});
