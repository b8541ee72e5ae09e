import { errors, type Dispatcher } from "undici";
import { answerHeaders, type AnswerHeaders } from "./response-headers.js";

// The undici dispatch handler of one exchange: it collects the status, the header fields and the whole
// body, then settles. The SDK reads every body whole, so it talks to the dispatcher directly instead of
// through undici's `request()`, which wraps each answer in a Readable stream (plus an AsyncResource, an
// abort-signal listener and a second header pass) only for the SDK to read it back whole: that machinery
// cost about as much CPU per call as the rest of the SDK's own work. It uses the handler interface
// `request()` itself uses in undici 7 (onConnect … onComplete), so every dispatcher `request()` works with
// (Agent, ProxyAgent, MockAgent) works here. The abort function undici hands it replaces an AbortSignal:
// the attempt's timer and the caller's signal call abort() directly, with no AbortController, signal or
// closure to create per attempt (an AbortSignal per attempt once cost more than the rest of the SDK's work).

/** What the server answered: status, header fields, and the body as one Buffer. */
export interface RawAnswer extends AnswerHeaders {
  status: number;
  body: Buffer;
}

const EMPTY = Buffer.alloc(0);

export class AnswerCollector implements Dispatcher.DispatchHandler {
  /** Settles once: with the whole answer, or with the error that ended the exchange. */
  readonly answer: Promise<RawAnswer>;
  /** Set when the attempt's timer ended the exchange (see timeOut). */
  timedOut = false;
  private resolve!: (answer: RawAnswer) => void;
  private reject!: (error: unknown) => void;
  private cancel: ((reason: Error) => void) | undefined;
  private reason: Error | undefined;
  private settled = false;
  private status = 0;
  private fields: AnswerHeaders | undefined;
  private chunks: Buffer[] = [];
  private length = 0;

  constructor() {
    this.answer = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** A setTimeout callback taking the collector as its argument, so that arming a timer allocates no closure. */
  static timeOut(collector: AnswerCollector): void {
    collector.timedOut = true;
    collector.abort();
  }

  /** Ends the exchange (a timeout, the caller's signal); it rejects, unless the answer is already complete. */
  abort(): void {
    if (this.settled || this.reason) return;
    this.reason = new errors.RequestAbortedError();
    // Still queued for a connection: onConnect aborts it as soon as undici hands it the abort function.
    this.cancel?.(this.reason);
  }

  /** An EventListenerObject, so that the caller's AbortSignal can abort without a closure per attempt. */
  handleEvent(): void {
    this.abort();
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.reason) abort(this.reason);
    else this.cancel = abort;
  }

  onHeaders(status: number, raw: Buffer[]): boolean {
    if (status < 200) return true; // 1xx informational: the real answer follows
    this.status = status;
    this.fields = answerHeaders(raw);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.length += chunk.length;
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.settled = true;
    const { chunks } = this;
    const body = chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, this.length);
    this.resolve({ status: this.status, ...this.fields!, body });
  }

  onError(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }
}
