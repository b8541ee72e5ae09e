import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ProblemCode } from "@iccid/core";
import type { Middleware } from "koa";
import type { ServerSettings } from "../settings.js";
import { commonFields, newRequestId } from "./answer-writer.js";
import { HttpProblem } from "./problem.js";

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A connection with a request being answered: that answer, since when it waits written but unsent (0 until
 * then), the requests behind it, and whether the connection is paused so that nothing more comes in.
 */
interface Busy {
  current: ServerResponse;
  since: number;
  waiting: Array<[IncomingMessage, ServerResponse]>;
  paused: boolean;
}

/** How often the answers are looked at, so that a timeout is kept within a tenth of a second or so. */
const SWEEP_MS = 100;

// What Node's HTTP parser reports, as the problem the client gets (Node itself would answer a bare
// 400/408/413/431 without a request id, Cache-Control or a problem body).
const PROBLEMS: Record<string, [ProblemCode, string]> = {
  HPE_HEADER_OVERFLOW: ["headers_too_large", "The request's header section is over the size limit."],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: ["payload_too_large", "The chunk extensions are over the size limit."],
  ERR_HTTP_REQUEST_TIMEOUT: ["request_timeout", "The request did not arrive in full in time."],
};

/**
 * What the server holds per connection, bounded for clients that do not read:
 * - one request at a time: a request pipelined behind another waits, unhandled, until the answer before it
 *   was handed to the kernel in full, and the connection is not read meanwhile (Node parses what it has
 *   read already; nothing more comes in). A client that sends and never reads so holds one answer, not one
 *   per request it sent. When the connection closes, the requests still waiting are dropped;
 * - every SWEEP_MS, the bytes the answers still hold in the process (`writableLength`: written, not yet
 *   taken by the kernel) are summed, and an answer still not sent in full `sendTimeoutMs` after it was
 *   written has its connection reset (`resetAndDestroy`, which also frees what the kernel holds for it).
 *   While the sum is over `unsentLimitBytes`, `guard` refuses new requests with 503 and Retry-After;
 * - a request Node could not parse (or that timed out) is answered with a problem body like any other
 *   (`clientError`), then the connection closes; an earlier request on the connection still being answered
 *   goes out first: it was handled (and maybe charged), so the malformed one behind it must not cut it off.
 *
 * `inFlight` counts the requests handed on whose answer is neither sent nor abandoned (their connection
 * closed): what a graceful stop waits for.
 */
export class Connections {
  readonly #busy = new Map<Socket, Busy>();
  /** Connections whose parser error was answered: the parser reports each later chunk again. */
  readonly #refused = new WeakSet<Duplex>();
  #inFlight = 0;
  #held = 0;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: Pick<ServerSettings, "sendTimeoutMs" | "unsentLimitBytes">,
    /** Told of each connection dropped for an answer that did not leave in time. */
    private readonly onDrop: () => void = () => {},
  ) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Starts looking at the answers, on a timer that does not keep the process alive. */
  start(): void {
    this.#sweeper ??= setInterval(() => this.#sweep(Date.now()), SWEEP_MS).unref();
  }

  stop(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  #sweep(now: number): void {
    let held = 0;
    for (const busy of this.#busy.values()) {
      const res = busy.current;
      if (!res.writableEnded || res.writableFinished || res.destroyed) continue; // still being made, sent, or abandoned
      held += res.writableLength;
      if (busy.since === 0) busy.since = now;
      else if (now - busy.since >= this.limits.sendTimeoutMs) {
        this.onDrop();
        res.socket?.resetAndDestroy();
      }
    }
    this.#held = held;
  }

  /**
   * Before the routes: 503 while the answers held are over the limit (a new answer would be held too),
   * then the two refusals Node would otherwise write bare: an HTTP/1.1 request without `Host` (RFC 9112
   * §3.2; the server is made with `requireHostHeader: false`) and an `Expect` other than `100-continue`
   * (RFC 9110 §10.1.1; `checkExpectation` requests come here), `bad_request` problems that close the connection.
   */
  guard(): Middleware {
    return (ctx, next) => {
      if (this.#held > this.limits.unsentLimitBytes) {
        throw new HttpProblem("unavailable", "The server holds too many answers its clients have not read; retry shortly.", { retry_after: 1 });
      }
      const req = ctx.req;
      if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
        throw badRequest("An HTTP/1.1 request must carry a Host header.");
      }
      const expect = req.headers.expect;
      if (expect !== undefined && expect.toLowerCase() !== "100-continue") throw badRequest("Expect: the only expectation this server meets is 100-continue.");
      return next();
    };
  }

  /** The server's `request` (and `checkExpectation`) listener: `handle` gets one request at a time per connection. */
  listener(handle: RequestListener): RequestListener {
    return (req, res) => {
      const socket = req.socket;
      const busy = this.#busy.get(socket);
      if (!busy) return this.#admit(handle, socket, { current: res, since: 0, waiting: [], paused: false }, req, res);
      busy.waiting.push([req, res]);
      // Every time: Node resumes a connection it paused itself once its writes drain.
      socket.pause();
      busy.paused = true;
    };
  }

  /** The server's `clientError` listener. */
  readonly clientError = (error: Error & { code?: string }, socket: Duplex): void => {
    if (this.#refused.has(socket)) return;
    this.#refused.add(socket);
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const current = this.#busy.get(socket as Socket)?.current;
    const inFlight = current && !current.writableFinished ? current : undefined;
    if (inFlight && inFlight.req.complete) {
      // The bad bytes follow a request received in full: it is answered first, then the refusal.
      inFlight.once("finish", () => writeProblem(error, socket));
      inFlight.once("close", () => inFlight.writableFinished || socket.destroy());
      return;
    }
    // The bad bytes are the request itself (or its body): refuse it, unless its answer has begun already.
    if (inFlight?.headersSent) socket.destroy();
    else writeProblem(error, socket);
  };

  #admit(handle: RequestListener, socket: Socket, busy: Busy, req: IncomingMessage, res: ServerResponse): void {
    this.#busy.set(socket, busy);
    busy.current = res;
    busy.since = 0;
    this.#inFlight++;
    // After "finish" (the last byte handed to the kernel), or at the connection's end, whichever first.
    res.once("close", () => {
      this.#inFlight--;
      this.#next(handle, socket, busy);
    });
    handle(req, res);
  }

  #next(handle: RequestListener, socket: Socket, busy: Busy): void {
    const following = busy.waiting.shift();
    if (following === undefined || socket.destroyed) {
      this.#busy.delete(socket);
      if (busy.paused && !socket.destroyed) socket.resume();
      return;
    }
    // A request whose body is still arriving needs the connection read again.
    if (!following[0].complete && busy.paused) {
      busy.paused = false;
      socket.resume();
    }
    this.#admit(handle, socket, busy, ...following);
  }
}

const badRequest = (detail: string) => new HttpProblem("bad_request", detail, { headers: { Connection: "close" } });

/** The parser's refusal, written to the bare socket with the fields every answer carries, then the connection closed. */
function writeProblem(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return;
  const [code, detail] = PROBLEMS[error.code ?? ""] ?? ["bad_request", "The request is not well-formed HTTP."];
  const problem = new HttpProblem(code, detail);
  const requestId = newRequestId();
  const body = JSON.stringify(problem.body(requestId));
  const fields = { "Content-Type": "application/problem+json", "Content-Length": String(Buffer.byteLength(body)), ...commonFields(requestId), Connection: "close" };
  const head = Object.entries(fields).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${head.join("")}\r\n${body}`, () => socket.destroy());
}
