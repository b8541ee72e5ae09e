import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call } from "./http.js";

// A body the server will not read (a refusal, a route that takes none) is not read on: the answer says
// Connection: close and the connection ends, however much the client announced and keeps sending.
let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ apiKey } = await server.createAccount());
});
afterAll(async () => server?.close());

/**
 * Sends `head` announcing a body of 100 GB and writes zeros as fast as the server takes them; resolves with
 * the answer's head, the megabytes written and the seconds until the connection ended (15 s at most).
 */
function flood(head: string): Promise<{ answer: string; megabytes: number; seconds: number }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve) => {
    const started = performance.now();
    let answer = "";
    let written = 0;
    const chunk = Buffer.alloc(64 * 1024);
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`${head}Content-Length: 100000000000\r\n\r\n`);
      const pump = () => {
        while (!socket.destroyed && performance.now() - started < 15_000 && socket.write(chunk)) written += chunk.length;
      };
      socket.on("drain", pump);
      pump();
    });
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => (answer += text));
    socket.on("error", () => {}); // EPIPE or ECONNRESET once the server is gone
    socket.on("close", () => resolve({ answer: answer.split("\r\n\r\n")[0]!, megabytes: written / 1e6, seconds: (performance.now() - started) / 1000 }));
    setTimeout(() => socket.destroy(), 15_000);
  });
}

describe("bodies the server does not read", () => {
  it.each([
    ["an answer that reads no body (GET /healthz)", "GET /healthz HTTP/1.1\r\nHost: x\r\n", 200],
    ["a body over the limit (413)", `POST /api/v1/iccid/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\nContent-Type: application/json\r\n`, 413],
    ["a refusal before the body (401)", "POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n", 401],
  ])("%s: answered, then the connection closes", async (_what, head, status) => {
    const { answer, megabytes, seconds } = await flood(head.replace("{key}", apiKey));
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(seconds).toBeLessThan(5);
    expect(megabytes).toBeLessThan(200);
  }, 20_000);

  it("keeps the connection of a request read in full", async () => {
    const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { body: { iccid: "8944100000000000000" }, headers: { authorization: `Bearer ${apiKey}` } });
    expect(r.headers.connection).not.toBe("close");
  });
});
