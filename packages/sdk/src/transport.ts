import { EventEmitter } from "node:events";
import { request, type Dispatcher } from "undici";
import { connectionFailure } from "./connection-failure.js";
import { APITimeoutError, APIUserAbortError, type ResponseHeaders } from "./errors.js";

// One HTTP exchange, no retries: send, read the whole body, and turn every way it can fail without an
// answer into the SDK's error classes. The timer covers headers and body alike, so a server that stalls
// mid-body is caught too.

export interface WireRequest {
  method: "GET" | "POST" | "DELETE";
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

export interface WireResponse {
  status: number;
  /** Lower-cased names; repeated fields joined with ", ". */
  headers: ResponseHeaders;
  setCookie: string[];
  /** The body as text; empty when `bytes` holds it instead (see exchange's `raw`). */
  text: string;
  /** The body undecoded, for a 2xx answer read with `raw`: kept outside the JS heap until it is decoded. */
  bytes?: Buffer | undefined;
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

function flattenHeaders(raw: Record<string, string | string[] | undefined>): { headers: ResponseHeaders; setCookie: string[] } {
  const headers: ResponseHeaders = {};
  let setCookie: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    if (key === "set-cookie") setCookie = Array.isArray(value) ? value : [value];
    headers[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { headers, setCookie };
}

export async function exchange(
  dispatcher: Dispatcher,
  host: string,
  req: WireRequest,
  limits: AttemptLimits,
  signal: AbortSignal | undefined,
  raw = false,
): Promise<WireResponse> {
  if (signal?.aborted) throw new APIUserAbortError(signal.reason);
  // undici takes an EventEmitter that emits "abort" as a signal. It is used here instead of an
  // AbortController because creating an AbortSignal per attempt costs more than the rest of the SDK's
  // per-request work together (measured: ~20 µs), and the SDK lookup must stay close to a raw request.
  const abort = new EventEmitter();
  let timedOut = false;
  const timer =
    limits.ms < MAX_TIMER_MS
      ? setTimeout(() => {
          timedOut = true;
          abort.emit("abort");
        }, Math.max(0, limits.ms))
      : undefined;
  const onAbort = () => abort.emit("abort");
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const res = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      dispatcher,
      signal: abort,
    });
    if (raw && res.statusCode < 400) {
      const bytes = Buffer.from(await res.body.arrayBuffer());
      return { status: res.statusCode, ...flattenHeaders(res.headers), text: "", bytes };
    }
    const text = await res.body.text();
    return { status: res.statusCode, ...flattenHeaders(res.headers), text };
  } catch (error) {
    if (timedOut) {
      throw new APITimeoutError({ host, scope: limits.scope, timeoutMs: limits.reportMs, attempts: limits.attempt });
    }
    if (signal?.aborted) throw new APIUserAbortError(signal.reason);
    throw connectionFailure(error, host);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
