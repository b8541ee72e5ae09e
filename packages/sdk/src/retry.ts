import { isAPIConnectionError, isAPIError, isAPITimeoutError, isQuotaExceededError } from "./error-guards.js";
import { APITimeoutError, APIUserAbortError } from "./errors.js";
import { errorFromResponse } from "./problem.js";
import { parseRetryAfter } from "./rate-limit-fields.js";
import { readText, type AttemptLimits, type HttpResponse } from "./transport.js";

// One API call as the caller sees it: attempts, backoff between them, the per-attempt timeout and the
// overall deadline; and when to try again and how long to wait. Retried: no response at all (refused, reset, an attempt timeout),
// 408, 409 `idempotency_key_in_use`, 429 `rate_limited` and 5xx. Not retried: `quota_exceeded` (it resets at the period's end, hours
// away), every other 4xx (the same request gets the same response), the deadline, the caller's abort. A
// caller that would rather fail than wait out a rate limit turns off only that one (`retryRateLimited`):
// a 503 or a dropped connection says nothing about the caller's pace and is still worth another try.

export interface RetryDelays {
  /** Upper bound of the first backoff; doubles per retry (full jitter: the wait is random in [0, bound]). */
  initialMs: number;
  /** Ceiling of the exponential bound. */
  maxMs: number;
  /**
   * The longest `Retry-After` the SDK waits out by itself. When the server asks for longer, the error is
   * thrown at once (its `retryAfterMs` says how long): a shorter wait would only earn another 429, and a
   * silent multi-minute stall is worse than an error the caller can schedule around.
   */
  maxRetryAfterMs: number;
}

/** What `onRetry` is told before the SDK waits to try a call again. */
export interface RetryEvent {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** How long the SDK waits before the next attempt. */
  delayMs: number;
  /** Why: an APIError (429 `rate_limited`, 5xx, 408) or a connection or attempt-timeout error. */
  error: unknown;
}

export const DEFAULT_RETRY_DELAYS: RetryDelays = { initialMs: 500, maxMs: 8_000, maxRetryAfterMs: 60_000 };

/** Whether the call is worth another attempt; `retryRateLimited: false` makes a 429 `rate_limited` final. */
export function isRetryable(error: unknown, retryRateLimited = true): boolean {
  if (isAPITimeoutError(error)) return error.scope === "attempt";
  if (isAPIConnectionError(error)) return true;
  if (!isAPIError(error)) return false;
  if (error.status === 429) return retryRateLimited && !isQuotaExceededError(error) && error.code !== "quota_exceeded";
  // The same Idempotency-Key still running: the next attempt finds its response.
  if (error.status === 409) return error.code === "idempotency_key_in_use";
  return error.status === 408 || error.status >= 500;
}

/** The wait before retry number `retry` (1-based); undefined when the server asked for more than the cap. */
export function retryDelayMs(error: unknown, retry: number, delays: RetryDelays, random = Math.random): number | undefined {
  const retryAfter = isAPIError(error) ? parseRetryAfter(error.headers["retry-after"]) : undefined;
  if (retryAfter !== undefined) return retryAfter <= delays.maxRetryAfterMs ? retryAfter : undefined;
  return Math.floor(random() * Math.min(delays.maxMs, delays.initialMs * 2 ** (retry - 1)));
}

/** Resolves after `ms`, or rejects with APIUserAbortError when one of `signals` fires first. */
export function sleep(ms: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> {
  const fired = signals.find((signal) => signal?.aborted);
  if (fired) return Promise.reject(new APIUserAbortError(fired.reason));
  return new Promise((resolve, reject) => {
    const listening = signals.filter((signal) => signal !== undefined);
    const settle = () => {
      clearTimeout(timer);
      for (const signal of listening) signal.removeEventListener("abort", onAbort);
    };
    const onAbort = (event: Event) => {
      settle();
      reject(new APIUserAbortError((event.target as AbortSignal).reason));
    };
    const timer = setTimeout(() => {
      settle();
      resolve();
    }, ms);
    for (const signal of listening) signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * One 429 back-off shared by concurrent callers (batchAll's workers): when one of them is told to wait,
 * the others hold their next request too instead of each spending a request to learn the same thing.
 */
export class SharedBackoff {
  private resumeAt = 0;

  pause(ms: number): void {
    this.resumeAt = Math.max(this.resumeAt, Date.now() + ms);
  }

  /** How long a caller must still wait before sending. */
  remainingMs(): number {
    return Math.max(0, this.resumeAt - Date.now());
  }
}

export interface CallPolicy {
  host: string;
  maxRetries: number;
  timeoutMs: number;
  deadlineMs: number | undefined;
  delays: RetryDelays;
  /** false: a 429 `rate_limited` is thrown at once; every other retry is unchanged. */
  retryRateLimited: boolean;
  signal: AbortSignal | undefined;
  /** Ends the waits between attempts, not an attempt on the wire (RequestOptions.retrySignal). */
  retrySignal: AbortSignal | undefined;
  /** Shared by concurrent callers so that one 429 holds them all (batchAll). */
  backoff: SharedBackoff | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

/** One attempt: an exchange with the attempt's time limits. */
export type Attempt = (limits: AttemptLimits) => Promise<HttpResponse<Buffer>>;

/** The first response below 400, or the error that ended the call (a response of 400 or more becomes an APIError). */
export async function callWithRetries(policy: CallPolicy, attempt: Attempt): Promise<HttpResponse<Buffer>> {
  const deadlineAt = policy.deadlineMs === undefined ? Infinity : performance.now() + policy.deadlineMs;
  const deadlinePassed = (attempts: number) =>
    new APITimeoutError({ host: policy.host, scope: "deadline", timeoutMs: policy.deadlineMs!, attempts });

  const waitSignals = [policy.signal, policy.retrySignal];
  let lastError: unknown;
  for (let n = 1; ; n++) {
    const shared = policy.backoff?.remainingMs() ?? 0;
    if (shared > 0) {
      if (performance.now() + shared >= deadlineAt) throw lastError ?? deadlinePassed(n - 1);
      await sleep(shared, waitSignals);
    }
    const left = deadlineAt - performance.now();
    if (left <= 0) throw deadlinePassed(n - 1);
    const byDeadline = left < policy.timeoutMs;
    const limits: AttemptLimits = byDeadline
      ? { ms: left, scope: "deadline", reportMs: policy.deadlineMs!, attempt: n }
      : { ms: policy.timeoutMs, scope: "attempt", reportMs: policy.timeoutMs, attempt: n };

    let error: unknown;
    try {
      const response = await attempt(limits);
      if (response.status < 400) return response;
      error = errorFromResponse(response.status, response.headers, readText(response.body));
    } catch (thrown) {
      error = thrown;
    }

    lastError = error;
    if (n > policy.maxRetries || !isRetryable(error, policy.retryRateLimited)) throw error;
    const delay = retryDelayMs(error, n, policy.delays);
    if (delay === undefined) throw error;
    // Waiting past the deadline would only end in a timeout; the real error says more.
    if (performance.now() + delay >= deadlineAt) throw error;
    policy.onRetry?.({ attempt: n, delayMs: delay, error });
    if (policy.backoff && (error as { status?: number }).status === 429) {
      policy.backoff.pause(delay); // slept at the top of the loop, together with the other workers
    } else {
      await sleep(delay, waitSignals);
    }
  }
}
