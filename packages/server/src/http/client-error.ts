import { STATUS_CODES, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ProblemCode } from "@iccid/core";
import { HttpProblem } from "./problem.js";
import { commonFields } from "./answer-writer.js";
import { newRequestId } from "./request-id.js";

// What Node's HTTP parser reports, as the problem the client gets (Node itself would answer a bare
// 400/408/413/431 without a request id, Cache-Control or a problem body).
const PROBLEMS: Record<string, [ProblemCode, string]> = {
  HPE_HEADER_OVERFLOW: ["headers_too_large", "The request's header section is over the size limit."],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: ["payload_too_large", "The chunk extensions are over the size limit."],
  ERR_HTTP_REQUEST_TIMEOUT: ["request_timeout", "The request did not arrive in full in time."],
};

/**
 * The server's `clientError` handling: a request Node could not parse (or that timed out) is answered with
 * a problem body like any other, then the connection closes. When an earlier request pipelined on the same
 * connection is still being answered, its answer goes out first: that request was handled (and maybe
 * charged), so it must not be cut off by the malformed one behind it. Which answer a connection is sending
 * is told by the server (`answering`), as each request is handed to the app.
 */
export class ClientErrors {
  readonly #answered = new WeakSet<Duplex>();
  readonly #current = new WeakMap<Duplex, ServerResponse>();

  /** `res` is the answer its connection sends now. */
  answering(res: ServerResponse): void {
    this.#current.set(res.req.socket, res);
  }

  /** The server's `clientError` listener. */
  readonly listener = (error: Error & { code?: string }, socket: Duplex): void => {
    if (this.#answered.has(socket)) return; // the parser reports each later chunk again
    this.#answered.add(socket);
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const current = this.#current.get(socket);
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
}

function writeProblem(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return;
  const [code, detail] = PROBLEMS[error.code ?? ""] ?? ["bad_request", "The request is not well-formed HTTP."];
  const problem = new HttpProblem(code, detail);
  const requestId = newRequestId();
  const body = JSON.stringify(problem.body(requestId));
  const fields = ["Content-Type", "application/problem+json", "Content-Length", String(Buffer.byteLength(body)), ...commonFields(requestId), "Connection", "close"];
  let head = "";
  for (let i = 0; i < fields.length; i += 2) head += `${fields[i]}: ${fields[i + 1]}\r\n`;
  socket.end(`HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${head}\r\n${body}`, () => socket.destroy());
}
