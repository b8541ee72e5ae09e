import { EventEmitter } from "node:events";
import { request, type Dispatcher } from "undici";
import type { Answer } from "./answer.js";
import { connectionFailure } from "./connection-failure.js";
import { APITimeoutError, APIUserAbortError, type ResponseHeaders } from "./errors.js";

// One HTTP exchange, no retries: send, read the whole body (as text, or as bytes for a caller that decodes
// later), and turn every way it can fail without an answer into the SDK's error classes. The timer covers
// headers and body alike, so a server that stalls mid-body is caught too.

export interface WireRequest {
  method: "GET" | "POST" | "DELETE";
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** An answer below 400: the call's result, its body read the way the call asked (see BodyReader). */
export interface WireAnswer<B extends string | Buffer> extends Answer<B> {
  failed: false;
  setCookie: string[];
}

/** A 4xx or 5xx answer: its body as text, for the error it becomes (problem.ts). */
export interface WireFailure {
  failed: true;
  status: number;
  headers: ResponseHeaders;
  setCookie: string[];
  text: string;
}

export type WireResponse<B extends string | Buffer = string> = WireAnswer<B> | WireFailure;

/** How a successful answer's body is read. */
export type BodyReader<B extends string | Buffer> = (body: Dispatcher.ResponseData["body"]) => Promise<B>;

export const readText: BodyReader<string> = (body) => body.text();

/** The body undecoded, as one Buffer: kept outside the JS heap until it is decoded. */
export const readBytes: BodyReader<Buffer> = async (body) => Buffer.from(await body.arrayBuffer());

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

export async function exchange<B extends string | Buffer>(
  dispatcher: Dispatcher,
  host: string,
  req: WireRequest,
  limits: AttemptLimits,
  signal: AbortSignal | undefined,
  read: BodyReader<B>,
): Promise<WireResponse<B>> {
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
    if (res.statusCode >= 400) {
      return { failed: true, status: res.statusCode, ...flattenHeaders(res.headers), text: await res.body.text() };
    }
    return { failed: false, status: res.statusCode, ...flattenHeaders(res.headers), body: await read(res.body) };
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
