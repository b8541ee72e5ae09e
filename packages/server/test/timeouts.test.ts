import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";

// The documented timeouts (docs/api.md, 408): the headers within 10 s, the whole request within 30 s,
// each answered with its problem within a second of its bound (Node checks every 30 s unless told).
let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ apiKey } = await server.createAccount());
});
afterAll(async () => server?.close());

/** Sends `sent` and nothing more; resolves with what came back and after how many seconds the connection closed. */
function stall(sent: string): Promise<{ answer: string; seconds: number }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answer = "";
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(sent));
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve({ answer, seconds: (performance.now() - started) / 1000 }));
  });
}

describe("timeouts", () => {
  it("408 request_timeout within a second of 10 s for slow headers and of 30 s for a slow body", async () => {
    const [headers, body] = await Promise.all([
      stall("POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"),
      stall(`POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"iccid":`),
    ]);
    for (const [{ answer, seconds }, bound] of [[headers, 10], [body, 30]] as const) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"code":"request_timeout"');
      expect(seconds).toBeGreaterThanOrEqual(bound - 0.05);
      expect(seconds).toBeLessThan(bound + 1);
    }
  }, 45_000);
});
