/**
 * The bound on a request's store work unless `--query-timeout` sets another: a request whose store work
 * (a connection of the pool, its statements, its charge's commit and that commit's resolution) is not
 * done by then is answered 503 `unavailable` with `Retry-After`. Deadlines are on the monotonic clock
 * (`performance.now()`): a step of the wall clock must not move them.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 5_000;
