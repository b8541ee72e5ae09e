import { describe, expect, it } from "vitest";
import { APIUserAbortError, InternalServerError } from "./errors.js";
import { callWithRetries, SharedBackoff, isRetryable, retryDelayMs, DEFAULT_RETRY_DELAYS, type CallPolicy } from "./retry.js";
import type { HttpResponse } from "./transport.js";

const wire = (status: number, headers: Record<string, string> = {}): HttpResponse => {
  const head = { status, headers: { "content-type": "application/json", ...headers }, setCookie: [] };
  if (status < 400) return { ...head, body: Buffer.from("{}") };
  return { ...head, body: Buffer.from(JSON.stringify({ code: status === 429 ? "rate_limited" : "unavailable", status })) };
};

const policy = (overrides: Partial<CallPolicy> = {}): CallPolicy => ({
  host: "h",
  maxRetries: 2,
  timeoutMs: 1_000,
  deadlineMs: undefined,
  delays: { initialMs: 1, maxMs: 1, maxRetryAfterMs: 60_000 },
  retryRateLimited: true,
  signal: undefined,
  retrySignal: undefined,
  backoff: undefined,
  ...overrides,
});

describe("callWithRetries", () => {
  it("holds every caller sharing a backoff when one of them is told to wait (429 Retry-After)", async () => {
    const backoff = new SharedBackoff();
    const at: { a: number[]; b: number[] } = { a: [], b: [] };
    let aAnswered!: () => void;
    const aFirstAnswer = new Promise<void>((resolve) => (aAnswered = resolve));

    const a = callWithRetries(policy({ backoff }), async () => {
      at.a.push(performance.now());
      if (at.a.length > 1) return wire(200);
      aAnswered();
      return wire(429, { "retry-after": "1" });
    });
    const b = callWithRetries(policy({ backoff }), async () => {
      at.b.push(performance.now());
      if (at.b.length > 1) return wire(200);
      await aFirstAnswer;
      // Answer only once A's 429 has paused everyone (waiting for that, not for a time a busy machine may exceed).
      while (backoff.remainingMs() === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      return wire(503); // on its own, B would retry after ≤ 1 ms
    });
    await Promise.all([a, b]);
    expect(at.a).toHaveLength(2);
    expect(at.b).toHaveLength(2);
    // Both retries waited out the Retry-After that only A was given (lower bounds: never flaky).
    expect(at.a[1]! - at.a[0]!).toBeGreaterThanOrEqual(950);
    expect(at.b[1]! - at.a[0]!).toBeGreaterThanOrEqual(950);
  });

  it("tells onRetry about each wait before it starts: the attempt, the delay and the error", async () => {
    const events: Array<{ attempt: number; delayMs: number; status: unknown }> = [];
    let attempts = 0;
    await callWithRetries(policy({ onRetry: (e) => events.push({ attempt: e.attempt, delayMs: e.delayMs, status: (e.error as { status?: number }).status }) }), async () => {
      attempts++;
      return attempts === 1 ? wire(429, { "retry-after": "1" }) : wire(200);
    });
    expect(events).toEqual([{ attempt: 1, delayMs: 1000, status: 429 }]);
  });

  it("retrySignal ends a wait to try again at once, and leaves an attempt on the wire to finish", async () => {
    const stop = new AbortController();
    let attempts = 0;
    const waiting = callWithRetries(policy({ retrySignal: stop.signal, onRetry: () => stop.abort() }), async () => {
      attempts++;
      return wire(429, { "retry-after": "60" });
    });
    await expect(waiting).rejects.toBeInstanceOf(APIUserAbortError);
    expect(attempts).toBe(1);

    const late = new AbortController();
    const answered = callWithRetries(policy({ retrySignal: late.signal }), async () => {
      late.abort();
      return wire(200);
    });
    await expect(answered).resolves.toMatchObject({ status: 200 });
  });

  it("throws the last error once attempts run out", async () => {
    let attempts = 0;
    const call = callWithRetries(policy({ maxRetries: 3 }), async () => {
      attempts++;
      return wire(502);
    });
    await expect(call).rejects.toBeInstanceOf(InternalServerError);
    expect(attempts).toBe(4);
  });
});

describe("retry policy", () => {
  it("backs off with full jitter under an exponential bound", () => {
    const error = new InternalServerError({ status: 503 });
    expect(retryDelayMs(error, 1, DEFAULT_RETRY_DELAYS, () => 0.999)).toBe(499);
    expect(retryDelayMs(error, 3, DEFAULT_RETRY_DELAYS, () => 0.5)).toBe(1000);
    expect(retryDelayMs(error, 10, DEFAULT_RETRY_DELAYS, () => 0.999)).toBe(7992); // capped at maxMs
    expect(retryDelayMs(error, 1, DEFAULT_RETRY_DELAYS, () => 0)).toBe(0);
  });

  it("retries what may succeed next time and nothing else", () => {
    expect(isRetryable(new InternalServerError({ status: 500 }))).toBe(true);
    expect(isRetryable(new Error("a bug"))).toBe(false);
    expect(isRetryable(undefined)).toBe(false);
  });
});
