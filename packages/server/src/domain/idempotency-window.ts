/** How long a request sent with an Idempotency-Key is proven: within it, the same request is a replay. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
