import type { ServerResponse } from "node:http";
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

/**
 * What the server holds for clients that do not read. Every answer being sent is looked at every
 * SWEEP_MS: the bytes it still holds in the process (`writableLength`: written, not yet taken by the
 * kernel) are summed, and an answer still not sent in full `sendTimeoutMs` after it was written has its
 * connection reset (`resetAndDestroy`, which also frees what the kernel holds for it). `guard` follows every
 * request's answer from the request's start until its response closes (sent, or its connection ended),
 * and while the sum is over `unsentLimitBytes` refuses new requests with 503 and Retry-After (an answer
 * that is followed too: a client may not read that one either).
 */
export class UnsentAnswers {
  /** Answers being sent: when they were first seen written in full but unsent (0 until then). */
  readonly #answers = new Map<ServerResponse, number>();
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
    for (const [res, since] of this.#answers) {
      if (!res.writableEnded || res.writableFinished) continue; // still being made, or sent
      held += res.writableLength;
      if (since === 0) this.#answers.set(res, now);
      else if (now - since >= this.limits.sendTimeoutMs) {
        this.#answers.delete(res);
        this.onDrop();
        res.socket?.resetAndDestroy();
      }
    }
    this.#held = held;
  }

  /** Follows the request's answer; refuses new work with 503 while the answers held are over the limit. */
  guard(): Middleware {
    return (ctx, next) => {
      const res = ctx.res;
      this.#answers.set(res, 0);
      res.once("close", () => this.#answers.delete(res));
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
