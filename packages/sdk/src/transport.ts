import type { Dispatcher } from "undici";
import { connectionFailure } from "./connection-failure.js";
import { APITimeoutError, APIUserAbortError, type ResponseHeaders } from "./errors.js";
import { responseHeaders } from "./response-headers.js";

// One HTTP exchange, no retries: send with the dispatcher's `request`, read the whole body, and turn every
// way it can fail without a response into the SDK's error classes. The timer covers headers and body
// alike, so a server that stalls mid-body is caught too.

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

/** The body as UTF-8 text, a leading byte-order mark skipped (as undici's `body.text()` does). */
export function readText(bytes: Buffer): string {
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString("utf8", bom ? 3 : 0);
}

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
  // One controller ends the exchange, for the attempt's timer and for the caller's signal alike.
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    limits.ms < MAX_TIMER_MS
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, Math.max(0, limits.ms))
      : undefined;
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const response = await dispatcher.request({ origin: req.origin, path: req.path, method: req.method, headers: req.headers, body: req.body, signal: controller.signal });
    const body = Buffer.from(await response.body.arrayBuffer());
    return { status: response.statusCode, ...responseHeaders(response.headers), body };
  } catch (error) {
    if (timedOut) throw new APITimeoutError({ host, scope: limits.scope, timeoutMs: limits.reportMs, attempts: limits.attempt });
    if (signal?.aborted) throw new APIUserAbortError(signal.reason);
    throw connectionFailure(error, host);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
