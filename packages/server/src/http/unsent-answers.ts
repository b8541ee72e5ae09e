import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Middleware } from "koa";
import { HttpProblem } from "./problem.js";

export interface UnsentAnswerLimits {
  /** An answer not handed to the kernel in full this long after it was written: its connection is dropped. */
  sendTimeoutMs: number;
  /** Past this many bytes of answers waiting in the process for their clients to read, new requests get 503. */
  unsentLimitBytes: number;
}

/** How often the answers are looked at: often enough that a timeout is kept within a tenth of a second or so. */
const SWEEP_MS = 100;

/** The answer a connection is sending now, and when it was first seen written in full but unsent (0 until then). */
interface Sending {
  res: ServerResponse;
  since: number;
}

/**
 * What the server holds for clients that do not read. Every connection's current answer is looked at every
 * SWEEP_MS: the bytes it still holds in the process (`writableLength`: written, not yet taken by the
 * kernel) are summed, and an answer still not sent in full `sendTimeoutMs` after it was written has its
 * connection reset (`resetAndDestroy`, which also frees what the kernel holds for it). An answer being
 * made, sent in full, or abandoned is passed over. While the sum is over `unsentLimitBytes`, `guard`
 * refuses new requests with 503 and Retry-After (an answer that is followed too: a client may not read
 * that one either).
 *
 * Answers are followed by connection (a connection sends one at a time: connection-gate.ts). `guard`
 * makes a connection's entry when it brings its first request; each later request on it puts its own
 * answer in that entry in place of the last one, and the entry goes when the connection closes. So an
 * entry keeps its connection's last answer until the next request replaces it or the socket closes, and
 * no entry is made and dropped per request (which kept every answer alive into the old generation).
 */
export class UnsentAnswers {
  readonly #connections = new Map<Socket, Sending>();
  #held = 0;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: UnsentAnswerLimits,
    /** Told of each connection dropped for an answer that did not leave in time. */
    private readonly onDrop: () => void = () => {},
  ) {}

  /** Bytes of answers held in the process for clients, at the last look. */
  get heldBytes(): number {
    return this.#held;
  }

  /** Starts looking at the answers (a timer that does not keep the process alive). */
  start(): void {
    this.#sweeper ??= setInterval(() => this.sweep(Date.now()), SWEEP_MS).unref();
  }

  stop(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  /** One look at every answer being sent: what they hold, and which ran out of time. */
  sweep(now: number): void {
    let held = 0;
    for (const sending of this.#connections.values()) {
      const { res } = sending;
      if (!res.writableEnded || res.writableFinished || res.destroyed) continue; // still being made, sent, or abandoned
      held += res.writableLength;
      if (sending.since === 0) sending.since = now;
      else if (now - sending.since >= this.limits.sendTimeoutMs) {
        this.onDrop();
        res.socket?.resetAndDestroy();
      }
    }
    this.#held = held;
  }

  /** Follows the request's answer; refuses new work with 503 while the answers held are over the limit. */
  guard(): Middleware {
    return (ctx, next) => {
      const { res } = ctx;
      const socket = ctx.req.socket;
      const sending = this.#connections.get(socket);
      if (sending) {
        sending.res = res;
        sending.since = 0;
      } else {
        this.#connections.set(socket, { res, since: 0 });
        socket.once("close", () => this.#connections.delete(socket));
      }
      if (this.#held > this.limits.unsentLimitBytes) {
        throw new HttpProblem("unavailable", "The server holds too many answers its clients have not read; retry shortly.", {
          retry_after: 1,
          headers: { "Retry-After": "1" },
        });
      }
      return next();
    };
  }
}
