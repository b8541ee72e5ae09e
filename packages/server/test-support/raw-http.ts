import { once } from "node:events";
import { createConnection, type Socket } from "node:net";

// Raw HTTP on one connection, for the cases a client library refuses to send (malformed requests, missing
// Host, odd Expect, a body cut short) or a test must hold the connection itself.

/**
 * A JSON POST as raw HTTP/1.1 bytes, sent with an API key, with Host and Content-Length written for it:
 * for a test that must hold the connection itself (reset it, never read from it).
 */
export function rawJsonPost(path: string, apiKey: string, body: string, headers: Record<string, string> = {}): string {
  const fields = { Host: "x", Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", ...headers, "Content-Length": String(Buffer.byteLength(body)) };
  return `POST ${path} HTTP/1.1\r\n${Object.entries(fields).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n${body}`;
}

/**
 * A connection to the server at `url` that writes `bytes` and never reads (until `socket.resume()`);
 * `ended` resolves with every byte it received once it has ended, on a reset or a close. It waits for
 * `close` itself, not with events.once: once() rejects on an `error` first, and a reset emits `error`
 * before `close` (Node 24 does so for a reset socket that Node 20 closed without one).
 */
export async function neverReading(url: string, bytes: string): Promise<{ socket: Socket; ended: Promise<Buffer> }> {
  const socket = createConnection({ port: Number(new URL(url).port), host: "127.0.0.1" });
  socket.pause();
  const received: Buffer[] = [];
  socket.on("data", (d: Buffer) => received.push(d));
  socket.on("error", () => {}); // a reset, by the server or the test itself: the end `ended` waits for
  const ended = new Promise<Buffer>((resolve) => socket.once("close", () => resolve(Buffer.concat(received))));
  await once(socket, "connect");
  socket.write(bytes);
  return { socket, ended };
}

/** Writes raw bytes on one connection and resolves with everything received until the server closes it. */
export function exchange(url: string, ...writes: Array<string | Buffer>): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port: Number(port), host: "127.0.0.1" });
    let received = "";
    socket.on("data", (d) => (received += d));
    socket.on("error", (error) => reject(new Error(`connection failed after ${JSON.stringify(received.slice(0, 200))}: ${error.message}`)));
    socket.on("close", () => resolve(received));
    socket.once("connect", () => {
      for (const w of writes) socket.write(w);
    });
  });
}

export interface RawResponse<B = any> {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body parsed as JSON (or, from `splitResponses`, as text). */
  body: B;
}

/** The responses in a transcript, each with a JSON body; throws when bytes are left over or one is cut short. */
export function responses(transcript: string): RawResponse[] {
  return splitResponses(transcript).map((response) => ({ ...response, body: JSON.parse(response.body) }));
}

/** The responses in a transcript, bodies as text; throws when bytes are left over or one is cut short. */
export function splitResponses(transcript: string): Array<RawResponse<string>> {
  const out: Array<RawResponse<string>> = [];
  let rest = transcript;
  while (rest.startsWith("HTTP/1.1 ")) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) throw new Error(`a response cut short in its head: ${JSON.stringify(rest.slice(0, 200))}`);
    const lines = rest.slice(0, headEnd).split("\r\n");
    const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
    const length = Number(headers["content-length"]);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    if (body.length < length) throw new Error(`a response cut short: ${body.length} of its ${length} body bytes`);
    out.push({ status: Number(lines[0]!.slice(9, 12)), headers, body });
    rest = rest.slice(headEnd + 4 + length);
  }
  if (rest !== "") throw new Error(`not a response: ${JSON.stringify(rest.slice(0, 200))}`);
  return out;
}
