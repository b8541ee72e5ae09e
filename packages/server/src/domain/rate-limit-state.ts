/**
 * Where an account stands against one of its request budgets. Limits compute it, reports show it and the
 * HTTP edge writes it as RateLimit fields; it lives here so none of them has to import another for it.
 */
export interface RateLimitState {
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the window frees capacity again. */
  resetSeconds: number;
}
