import type { RetryEvent } from "@iccid/sdk";
import { note, type Terminal } from "./terminal.js";

/** Waits shorter than this are not worth a line, except for a rate limit, which is always said. */
const QUIET_BELOW_MS = 1_000;

/**
 * The SDK's onRetry as a note on stderr, so that a wait is never silent: "rate limited; retrying in 55 s".
 * Concurrent batch requests share one rate-limit wait; it is told once, not once per request.
 */
export function retryNote(term: Terminal): (event: RetryEvent) => void {
  let toldUntil = 0;
  return ({ delayMs, error }) => {
    const status = (error as { status?: unknown }).status;
    // The SDK retries a 429 only when it is `rate_limited`, the one retry --no-wait turns off.
    const rateLimited = status === 429;
    if (!rateLimited && delayMs < QUIET_BELOW_MS) return;
    const until = Date.now() + delayMs;
    if (until <= toldUntil + QUIET_BELOW_MS) return;
    toldUntil = until;
    const why = rateLimited ? "rate limited" : typeof status === "number" ? `the server answered ${status}` : "no answer from the server";
    const hint = rateLimited ? " (--no-wait fails instead)" : "";
    note(term, `iccid: ${why}; retrying in ${Math.max(1, Math.round(delayMs / 1000))} s${hint}`);
  };
}
