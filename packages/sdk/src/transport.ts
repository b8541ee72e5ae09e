import type { Dispatcher } from "undici";
import { connectionFailure } from "./connection-failure.js";
import { APITimeoutError, APIUserAbortError, type ResponseHeaders } from "./errors.js";
import { ResponseCollector } from "./response-collector.js";

// One HTTP exchange, no retries: send, read the whole body, and turn every way it can fail without a
// response into the SDK's error classes. The timer covers headers and body alike, so a server that stalls
// mid-body is caught too. The exchange goes straight to the dispatcher through a ResponseCollector rather
// than undici's request() (response-collector.ts says why).

export interface HttpRequest {
  method: "GET" | "POST" | "DELETE";
  /** `http(s)://host[:port]`, as URL.origin gives it. */
  origin: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** The server's response: the status, the header fields and the body, as bytes or read as text. */
export interface HttpResponse<B extends string | Buffer = Buffer> {
  status: number;
  /** Lower-cased names; repeated fields joined with ", ". */
  headers: ResponseHeaders;
  /** Each Set-Cookie field on its own. */
  setCookie: string[];
  body: B;
}

/** How a response's body is read from its bytes. */
export type BodyReader<B extends string | Buffer> = (bytes: Buffer) => B;

/** The body as UTF-8 text, a leading byte-order mark skipped (as undici's `body.text()` does). */
export const readText: BodyReader<string> = (bytes) => {
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString("utf8", bom ? 3 : 0);
};

/**
 * The body undecoded, as one Buffer of its own: kept outside the JS heap until it is decoded. A body that
 * arrived in one piece is a view into the socket's read buffer; it is copied so as not to hold all of that.
 */
export const readBytes: BodyReader<Buffer> = (bytes) => (bytes.buffer.byteLength === bytes.length ? bytes : Buffer.from(bytes));

export interface AttemptLimits {
  /** Milliseconds this attempt may take (Infinity: no timer). */
  ms: number;
  /** Which limit `ms` comes from, for the error. */
  scope: "attempt" | "deadline";
  /** The configured limit to report (the whole deadline, not what was left of it). */
  reportMs: number;
  /** 1-based attempt number, for the error. */
  attempt: number;
}

// setTimeout treats anything above 2^31-1 ms (≈24.8 days) as 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function exchange(
  dispatcher: Dispatcher,
  host: string,
  req: HttpRequest,
  limits: AttemptLimits,
  signal: AbortSignal | undefined,
): Promise<HttpResponse<Buffer>> {
  if (signal?.aborted) throw new APIUserAbortError(signal.reason);
  const collector = new ResponseCollector();
  const timer = limits.ms < MAX_TIMER_MS ? setTimeout(ResponseCollector.timeOut, Math.max(0, limits.ms), collector) : undefined;
  signal?.addEventListener("abort", collector, { once: true });
  try {
    dispatcher.dispatch({ origin: req.origin, path: req.path, method: req.method, headers: req.headers, body: req.body }, collector);
    return await collector.response;
  } catch (error) {
    if (collector.timedOut) {
      throw new APITimeoutError({ host, scope: limits.scope, timeoutMs: limits.reportMs, attempts: limits.attempt });
    }
    if (signal?.aborted) throw new APIUserAbortError(signal.reason);
    throw connectionFailure(error, host);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", collector);
  }
}
