import type { FieldError, KeyRecord } from "@iccid/core/types";
import { BRAND } from "./error-brand.js";
import type { RateLimitInfo } from "./rate-limit-fields.js";

// Every error the SDK throws. Each class sets its `name` on the prototype and carries BRAND, which the
// guards (error-guards.ts) read.

export type ResponseHeaders = Record<string, string>;

/**
 * Base of everything the SDK throws on purpose. Every error has `status` and `requestId`: the HTTP status
 * and `X-Request-Id` of the answer it is about, both undefined when there was no answer (a connection
 * error, a timeout, an abort, a key refused before sending).
 */
export class IccidError extends Error {
  static {
    this.prototype.name = "IccidError";
    Object.defineProperty(this.prototype, BRAND, { value: true });
  }
  readonly status: number | undefined;
  /** `X-Request-Id` of the answer: quote it to support. */
  readonly requestId: string | undefined;

  constructor(message: string, options: ErrorOptions & { status?: number | undefined; requestId?: string | undefined } = {}) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.status = options.status;
    this.requestId = options.requestId;
  }
}

export interface APIErrorInit {
  status: number;
  code?: string | undefined;
  title?: string | undefined;
  detail?: string | undefined;
  requestId?: string | undefined;
  headers?: ResponseHeaders;
  body?: unknown;
}

/** The server answered with an error status (RFC 9457 problem details). */
export class APIError extends IccidError {
  static {
    this.prototype.name = "APIError";
  }
  declare readonly status: number;
  /** The problem `code` (`invalid_api_key`, `rate_limited`, …); undefined when the body was not a problem. */
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly headers: ResponseHeaders;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  readonly body: unknown;

  constructor(init: APIErrorInit) {
    const what = init.code ? `${init.status} ${init.code}` : `${init.status}`;
    const because = init.detail ?? init.title ?? "the server answered with an error";
    super(`${what}: ${because}${init.requestId ? ` (request ${init.requestId})` : ""}`, { status: init.status, requestId: init.requestId });
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.headers = init.headers ?? {};
    this.body = init.body;
  }
}

/** 401: the API key or the session was missing, wrong, revoked or expired (`expired_api_key`); or the login failed. */
export class AuthenticationError extends APIError {
  static {
    this.prototype.name = "AuthenticationError";
  }
}

/**
 * The API key was refused before any request: missing (`code` `missing_api_key`) or failing the key
 * format and checksum (`invalid_api_key`). It is an AuthenticationError so that one `catch` handles a bad
 * key wherever it was noticed; `status` is 401, as the server would have answered, and `requestId` is unset.
 */
export class ApiKeyError extends AuthenticationError {
  static {
    this.prototype.name = "ApiKeyError";
  }
  constructor(code: "missing_api_key" | "invalid_api_key", detail: string) {
    super({ status: 401, code, detail });
  }
}

/** 403: authenticated but not allowed (`csrf_rejected`, or a subscription problem, see below). */
export class PermissionDeniedError extends APIError {
  static {
    this.prototype.name = "PermissionDeniedError";
  }
}

/** 403 `no_active_subscription`: the account's subscription is canceled or past due. */
export class SubscriptionRequiredError extends PermissionDeniedError {
  static {
    this.prototype.name = "SubscriptionRequiredError";
  }
}

/** 403 `insufficient_scope`: the API key was not given the scope this call needs; nothing was charged. */
export class InsufficientScopeError extends PermissionDeniedError {
  static {
    this.prototype.name = "InsufficientScopeError";
  }
  /** The scope the key lacks (`lookup` or `usage:read`). */
  readonly requiredScope: string | undefined;
  constructor(init: APIErrorInit & { requiredScope?: string | undefined }) {
    super(init);
    this.requiredScope = init.requiredScope;
  }
}

/** 409: the request conflicts with the resource's state (`key_not_rollable`: a revoked, expired or rolled key). */
export class ConflictError extends APIError {
  static {
    this.prototype.name = "ConflictError";
  }
}

/**
 * 409 `idempotency_key_in_use`: a request with this Idempotency-Key is still being answered (a retry that
 * overtook the first attempt). Retried by default after `retryAfterMs`, when the first response is kept.
 */
export class IdempotencyKeyInUseError extends ConflictError {
  static {
    this.prototype.name = "IdempotencyKeyInUseError";
  }
  readonly retryAfterMs: number | undefined;
  constructor(init: APIErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * `keys.create` was answered by a replay (`Idempotent-Replayed: true`): the server had created this key for
 * the same Idempotency-Key already, and never shows a secret twice. Roll `record.id` for a new secret.
 */
export class KeyAlreadyCreatedError extends IccidError {
  static {
    this.prototype.name = "KeyAlreadyCreatedError";
  }
  constructor(readonly record: KeyRecord) {
    super(`the key ${record.id} was created by an earlier attempt and its secret is not shown again: roll it for a new one`);
  }
}

/** 404: unknown route, or a key id that does not exist or belongs to another account. */
export class NotFoundError extends APIError {
  static {
    this.prototype.name = "NotFoundError";
  }
}

/** 405: the path exists, the method does not. */
export class MethodNotAllowedError extends APIError {
  static {
    this.prototype.name = "MethodNotAllowedError";
  }
}

/** 413: the body is over the server's limit (256 KiB by default). */
export class PayloadTooLargeError extends APIError {
  static {
    this.prototype.name = "PayloadTooLargeError";
  }
}

/** 415: the body was not `application/json`. */
export class UnsupportedMediaTypeError extends APIError {
  static {
    this.prototype.name = "UnsupportedMediaTypeError";
  }
}

/** 422 `invalid_input` or `malformed_json`; `errors` points at each offending field. */
export class UnprocessableEntityError extends APIError {
  static {
    this.prototype.name = "UnprocessableEntityError";
  }
  readonly errors: FieldError[];
  constructor(init: APIErrorInit & { errors?: FieldError[] }) {
    super(init);
    this.errors = init.errors ?? [];
  }
}

/** 422 `idempotency_key_reused`: this Idempotency-Key was used in the last 24 hours with another body. Never retried. */
export class IdempotencyKeyReusedError extends UnprocessableEntityError {
  static {
    this.prototype.name = "IdempotencyKeyReusedError";
  }
}

/** 429 `rate_limited`: too many requests in the plan's window. Retried by default after `retryAfterMs`. */
export class RateLimitError extends APIError {
  static {
    this.prototype.name = "RateLimitError";
  }
  /** From `Retry-After` (or the body's `retry_after`); undefined when the server gave neither. */
  readonly retryAfterMs: number | undefined;
  /** The IETF `RateLimit` / `RateLimit-Policy` fields of the response. */
  readonly rateLimit: RateLimitInfo | undefined;
  constructor(init: APIErrorInit & { retryAfterMs?: number | undefined; rateLimit?: RateLimitInfo | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
    this.rateLimit = init.rateLimit;
  }
}

/** 429 `quota_exceeded`: the period's lookups are used up. Never retried; wait for `resetsAt`. */
export class QuotaExceededError extends APIError {
  static {
    this.prototype.name = "QuotaExceededError";
  }
  readonly resetsAt: Date | undefined;
  readonly retryAfterMs: number | undefined;
  constructor(init: APIErrorInit & { resetsAt?: Date | undefined; retryAfterMs?: number | undefined }) {
    super(init);
    this.resetsAt = init.resetsAt;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx: `internal_error`, `unavailable` (503), or a proxy in front of the server. Retried by default. */
export class InternalServerError extends APIError {
  static {
    this.prototype.name = "InternalServerError";
  }
}

/** No HTTP response: refused, reset, DNS failure, TLS failure. The message names the host and the likely reason. */
export class APIConnectionError extends IccidError {
  static {
    this.prototype.name = "APIConnectionError";
  }
  /** `host:port` the SDK tried to reach. */
  readonly host: string;
  /** The system or undici error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) when there was one. */
  readonly errno: string | undefined;
  constructor(message: string, options: { host: string; errno?: string | undefined; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.host = options.host;
    this.errno = options.errno;
  }
}

/**
 * No response in time. `scope` says which limit ran out: `"attempt"` (`timeoutMs`, retried like a dropped
 * connection) or `"deadline"` (`deadlineMs`, the whole call including retries; never retried).
 */
export class APITimeoutError extends APIConnectionError {
  static {
    this.prototype.name = "APITimeoutError";
  }
  readonly scope: "attempt" | "deadline";
  readonly timeoutMs: number;
  constructor(options: { host: string; scope: "attempt" | "deadline"; timeoutMs: number; attempts: number }) {
    const what = options.scope === "attempt" ? "the request timed out" : "the call's deadline passed";
    const tries = options.attempts === 1 ? "1 attempt" : `${options.attempts} attempts`;
    super(`${what} after ${options.timeoutMs} ms talking to ${options.host} (${tries})`, { host: options.host });
    this.scope = options.scope;
    this.timeoutMs = options.timeoutMs;
  }
}

/** The caller's AbortSignal fired; `cause` holds the signal's reason. */
export class APIUserAbortError extends IccidError {
  static {
    this.prototype.name = "APIUserAbortError";
  }
  constructor(reason: unknown) {
    super("the request was aborted", { cause: reason });
  }
}

export interface ValidationIssue {
  path: string;
  message: string;
}

/** A 2xx response that does not match the v1 contract (wrong shape, not JSON): the server and SDK disagree. */
export class ResponseValidationError extends IccidError {
  static {
    this.prototype.name = "ResponseValidationError";
  }
  declare readonly status: number;
  readonly issues: ValidationIssue[];
  readonly body: unknown;
  constructor(init: { what: string; status: number; requestId?: string | undefined; issues: ValidationIssue[]; body: unknown }) {
    const shown = init.issues.slice(0, 3).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
    const more = init.issues.length > 3 ? ` (and ${init.issues.length - 3} more)` : "";
    super(`${init.what} did not match the API contract: ${shown.join("; ")}${more}`, { status: init.status, requestId: init.requestId });
    this.issues = init.issues;
    this.body = init.body;
  }
}
