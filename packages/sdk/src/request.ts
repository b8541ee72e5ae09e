import { APITimeoutError } from "./errors.js";
import { errorFromResponse } from "./problem.js";
import { isRetryable, retryDelayMs, sleep, type RetryDelays, type RetryEvent, type SharedBackoff } from "./retry.js";
import type { AttemptLimits, WireAnswer, WireResponse } from "./transport.js";

// One API call as the caller sees it: attempts, backoff between them, the per-attempt timeout and the
// overall deadline. Returns the first answer below 400 or throws the error that ended the call.

export interface CallPolicy {
  host: string;
  maxRetries: number;
  timeoutMs: number;
  deadlineMs: number | undefined;
  delays: RetryDelays;
  /** false: a 429 `rate_limited` is thrown at once; every other retry is unchanged. */
  retryRateLimited: boolean;
  signal: AbortSignal | undefined;
  /** Shared by concurrent callers so that one 429 holds them all (batchAll). */
  backoff: SharedBackoff | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

export type Attempt<B extends string | Buffer> = (limits: AttemptLimits) => Promise<WireResponse<B>>;

export async function callWithRetries<B extends string | Buffer>(policy: CallPolicy, attempt: Attempt<B>): Promise<WireAnswer<B>> {
  const deadlineAt = policy.deadlineMs === undefined ? Infinity : performance.now() + policy.deadlineMs;
  const deadlinePassed = (attempts: number) =>
    new APITimeoutError({ host: policy.host, scope: "deadline", timeoutMs: policy.deadlineMs!, attempts });

  let lastError: unknown;
  for (let n = 1; ; n++) {
    const shared = policy.backoff?.remainingMs() ?? 0;
    if (shared > 0) {
      if (performance.now() + shared >= deadlineAt) throw lastError ?? deadlinePassed(n - 1);
      await sleep(shared, policy.signal);
    }
    const left = deadlineAt - performance.now();
    if (left <= 0) throw deadlinePassed(n - 1);
    const byDeadline = left < policy.timeoutMs;
    const limits: AttemptLimits = byDeadline
      ? { ms: left, scope: "deadline", reportMs: policy.deadlineMs!, attempt: n }
      : { ms: policy.timeoutMs, scope: "attempt", reportMs: policy.timeoutMs, attempt: n };

    let error: unknown;
    try {
      const res = await attempt(limits);
      if (!res.failed) return res;
      error = errorFromResponse(res.status, res.headers, res.text);
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
      await sleep(delay, policy.signal);
    }
  }
}
