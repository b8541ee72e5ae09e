/** Every problem `code` of the v1 contract, with its HTTP status and title (docs/api.md, "Errors"). */
export const PROBLEM_CODES = {
  bad_request: { status: 400, title: "Bad request", when: "The request is not well-formed HTTP." },
  missing_api_key: { status: 401, title: "Missing API key", when: "No Bearer API key was sent." },
  invalid_api_key: { status: 401, title: "Invalid API key", when: "The Bearer API key is malformed or unknown." },
  revoked_api_key: { status: 401, title: "Revoked API key", when: "The Bearer API key was revoked." },
  expired_api_key: {
    status: 401,
    title: "Expired API key",
    when: "The Bearer API key is past its expires_at, or was rolled and its grace period is over.",
  },
  not_authenticated: { status: 401, title: "Not authenticated", when: "No session, or the session expired." },
  invalid_credentials: { status: 401, title: "Invalid credentials", when: "The email or password is wrong." },
  no_active_subscription: {
    status: 403,
    title: "No active subscription",
    when: "The account's subscription is not active.",
  },
  insufficient_scope: {
    status: 403,
    title: "Insufficient scope",
    when: "The API key lacks the scope this endpoint needs (named in required_scope); nothing was charged.",
  },
  csrf_rejected: { status: 403, title: "Cross-site request rejected", when: "A cross-site state-changing session request." },
  invalid_idempotency_key: {
    status: 400,
    title: "Invalid Idempotency-Key",
    when: "The Idempotency-Key header is empty, longer than 255 characters, or not printable ASCII.",
  },
  not_found: { status: 404, title: "Not found", when: "Unknown route or key id." },
  method_not_allowed: { status: 405, title: "Method not allowed", when: "The path exists but not with this method." },
  request_timeout: { status: 408, title: "Request timeout", when: "The request did not arrive in full in time." },
  key_not_rollable: {
    status: 409,
    title: "Key cannot be rolled",
    when: "The key was revoked, has expired or was rolled already.",
  },
  idempotency_key_in_use: {
    status: 409,
    title: "Idempotency key in use",
    when: "A request with this Idempotency-Key is still being answered; retry after Retry-After.",
  },
  payload_too_large: { status: 413, title: "Payload too large", when: "The body is over the size limit." },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported media type",
    when: "A body that is not application/json.",
  },
  invalid_input: { status: 422, title: "Invalid input", when: "The request failed the schema or the ICCID grammar." },
  idempotency_key_reused: {
    status: 422,
    title: "Idempotency key reused",
    when: "This Idempotency-Key was used in the last 24 hours for a request with another body.",
  },
  malformed_json: { status: 422, title: "Malformed JSON", when: "The body is not parsable JSON." },
  rate_limited: { status: 429, title: "Rate limited", when: "Requests over the plan's rate limit; retry after Retry-After." },
  quota_exceeded: {
    status: 429,
    title: "Quota exceeded",
    when: "The period's lookups are used up; do not retry before resets_at.",
  },
  headers_too_large: {
    status: 431,
    title: "Request header fields too large",
    when: "The request's header section is over the size limit.",
  },
  internal_error: { status: 500, title: "Internal error", when: "An unexpected fault; the request id helps support." },
  unavailable: { status: 503, title: "Service unavailable", when: "Shutting down, or the store is unreachable." },
} as const satisfies Record<string, { status: number; title: string; when: string }>;

export type ProblemCode = keyof typeof PROBLEM_CODES;
export const PROBLEM_CODE_LIST = Object.keys(PROBLEM_CODES) as ProblemCode[];

/** The `type` URI of a problem code (a relative reference to the human error page). */
export function problemType(code: ProblemCode): string {
  return `/docs/errors#${code}`;
}
