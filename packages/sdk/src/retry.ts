import {
  APIUserAbortError,
  isAPIConnectionError,
  isAPIError,
  isAPITimeoutError,
  isQuotaExceededError,
} from "./errors.js";
import { parseRetryAfter } from "./rate-limit-fields.js";

// When to try again and how long to wait. Retried: no answer at all (refused, reset, an attempt timeout),
// 408, 429 `rate_limited` and 5xx. Not retried: `quota_exceeded` (it resets at the period's end, hours
// away), every other 4xx (the same request gets the same answer), the deadline, the caller's abort. A
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
  return error.status === 408 || error.status >= 500;
}

/** The wait before retry number `retry` (1-based); undefined when the server asked for more than the cap. */
export function retryDelayMs(error: unknown, retry: number, delays: RetryDelays, random = Math.random): number | undefined {
  const retryAfter = isAPIError(error) ? parseRetryAfter(error.headers["retry-after"]) : undefined;
  if (retryAfter !== undefined) return retryAfter <= delays.maxRetryAfterMs ? retryAfter : undefined;
  return Math.floor(random() * Math.min(delays.maxMs, delays.initialMs * 2 ** (retry - 1)));
}

/** Resolves after `ms`, or rejects with APIUserAbortError when `signal` fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new APIUserAbortError(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
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
