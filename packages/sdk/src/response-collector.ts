import { errors, type Dispatcher } from "undici";
import type { IncomingHttpHeaders } from "node:http";
import { responseHeaders } from "./response-headers.js";
import type { HttpResponse } from "./transport.js";

// The undici dispatch handler of one exchange, on undici's DispatchHandler interface (onRequestStart …
// onResponseEnd): it collects the status, the header fields and the whole body, then settles. The SDK
// reads every body whole, so it hands the dispatcher this handler instead of calling `request()`, which
// would wrap each body in a Readable only for the SDK to read it back whole. Every dispatcher `request()`
// works with (Agent, ProxyAgent, MockAgent) works here. The attempt's timer and the caller's signal end
// the exchange through the controller undici hands over, so no AbortController is made per attempt.

const EMPTY = Buffer.alloc(0);

export class ResponseCollector implements Dispatcher.DispatchHandler {
  /** Settles once: with the whole response, or with the error that ended the exchange. */
  readonly response: Promise<HttpResponse<Buffer>>;
  /** Set when the attempt's timer ended the exchange (see timeOut). */
  timedOut = false;
  private resolve!: (response: HttpResponse<Buffer>) => void;
  private reject!: (error: unknown) => void;
  private controller: Dispatcher.DispatchController | undefined;
  private reason: Error | undefined;
  private settled = false;
  private status = 0;
  private fields: Pick<HttpResponse, "headers" | "setCookie"> | undefined;
  private chunks: Buffer[] = [];
  private length = 0;

  constructor() {
    this.response = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** A setTimeout callback taking the collector as its argument, so that arming a timer allocates no closure. */
  static timeOut(collector: ResponseCollector): void {
    collector.timedOut = true;
    collector.abort();
  }

  /** Ends the exchange (a timeout, the caller's signal); it rejects, unless the response is already complete. */
  abort(): void {
    if (this.settled || this.reason) return;
    this.reason = new errors.RequestAbortedError();
    // Still queued for a connection: onRequestStart aborts it as soon as undici hands over the controller.
    this.controller?.abort(this.reason);
  }

  /** An EventListenerObject, so that the caller's AbortSignal can abort without a closure per attempt. */
  handleEvent(): void {
    this.abort();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.reason) controller.abort(this.reason);
    else this.controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200) return; // 1xx informational: the real response follows
    this.status = status;
    this.fields = responseHeaders(headers);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    const { chunks } = this;
    const body = chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, this.length);
    this.resolve({ status: this.status, ...this.fields!, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }
}
