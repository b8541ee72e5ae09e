import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call } from "./http.js";

// What a client sends that the server does not take costs the server little (docs/api.md, docs/SECURITY.md):
// headers must arrive within 10 s and the whole request within 30 s (408 within a second of each bound), and
// a body the server does not read in full, declared over the body limit or of no declared length, is not
// read on: the answer says Connection: close and the connection ends. A rest within the limit is read, and
// the connection kept.
let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ apiKey } = await server.createAccount());
});
afterAll(async () => server?.close());

interface Exchange {
  /** All that came back. */
  answer: string;
  /** Megabytes of body written after `sent`. */
  megabytes: number;
  /** Seconds until the connection closed. */
  seconds: number;
}

/**
 * Opens a connection and writes `sent` (its parts one at a time, each once something more came back), then,
 * for `flood` ms, zeros as fast as the server takes them (in chunks of 64 KiB when `chunked`); resolves once
 * the connection closed, or after `flood` ms or 45 s.
 */
function exchange(sent: string | string[], { flood = 0, chunked = false } = {}): Promise<Exchange> {
  const parts = [sent].flat();
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve) => {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    let answer = "";
    let written = 0;
    const zeros = Buffer.alloc(64 * 1024);
    const body = chunked ? Buffer.concat([Buffer.from("10000\r\n"), zeros, Buffer.from("\r\n")]) : zeros;
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(parts.shift()!);
      const pump = () => {
        while (!socket.destroyed && elapsed() < flood && socket.write(body)) written += body.length;
      };
      socket.on("drain", pump);
      pump();
    });
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => {
      answer += text;
      if (parts.length > 0) socket.write(parts.shift()!);
    });
    socket.on("error", () => {}); // EPIPE or ECONNRESET once the server is gone: what came back tells
    socket.on("close", () => resolve({ answer, megabytes: written / 1e6, seconds: elapsed() / 1000 }));
    setTimeout(() => socket.destroy(), flood || 45_000);
  });
}

/** The heads of the answers in a transcript, in order. */
const heads = (answer: string) => answer.split(/(?=HTTP\/1\.1 \d{3} )/).map((part) => part.split("\r\n\r\n")[0]!);

describe("slow senders", () => {
  it("408 request_timeout within a second of 10 s for slow headers and of 30 s for a slow body", async () => {
    const [headers, body] = await Promise.all([
      exchange("POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"),
      exchange(`POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"iccid":`),
    ]);
    for (const [{ answer, seconds }, bound] of [[headers, 10], [body, 30]] as const) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"code":"request_timeout"');
      expect(seconds).toBeGreaterThanOrEqual(bound - 0.05);
      expect(seconds).toBeLessThan(bound + 1);
    }
  }, 45_000);
});

describe("bodies the server does not read", () => {
  it.each([
    ["an answer that reads no body (GET /healthz)", "GET /healthz HTTP/1.1\r\nHost: x\r\n", 200],
    ["a body over the limit (413)", "POST /api/v1/iccid/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\nContent-Type: application/json\r\n", 413],
    ["a refusal before the body (401)", "POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n", 401],
  ])("%s, with 100 GB announced: answered, then the connection closes", async (_what, head, status) => {
    const { answer, megabytes, seconds } = await exchange(`${head.replace("{key}", apiKey)}Content-Length: 100000000000\r\n\r\n`, { flood: 15_000 });
    expect(heads(answer)).toEqual([expect.stringMatching(new RegExp(`^HTTP/1\\.1 ${status} [^]*\r\nConnection: close(\r\n|$)`, "i"))]);
    expect(seconds).toBeLessThan(5);
    expect(megabytes).toBeLessThan(200);
  }, 20_000);

  it("a chunked body refused before it is read closes the connection too", async () => {
    const { answer, megabytes, seconds } = await exchange("POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", { flood: 15_000, chunked: true });
    expect(heads(answer)).toEqual([expect.stringMatching(/^HTTP\/1\.1 401 [^]*\r\nConnection: close(\r\n|$)/i)]);
    expect(seconds).toBeLessThan(5);
    expect(megabytes).toBeLessThan(200);
  }, 20_000);

  it("a refusal before a body within the limit reads its rest and keeps the connection: the request behind it is answered", async () => {
    const body = JSON.stringify({ iccid: "8944100000000000000" });
    const head = `POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // Refused with half its body sent; the other half comes after the answer, with a request behind it.
    const { answer } = await exchange([`${head}${body.slice(0, 10)}`, `${body.slice(10)}GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]);
    const [refused, next] = heads(answer);
    expect(refused).toMatch(/^HTTP\/1\.1 401 /);
    expect(refused).not.toMatch(/\r\nConnection: close/i);
    expect(next).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("keeps the connection of a request read in full", async () => {
    const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { body: { iccid: "8944100000000000000" }, headers: { authorization: `Bearer ${apiKey}` } });
    expect(r.headers.connection).not.toBe("close");
  });
});
