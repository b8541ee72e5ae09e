import { PROBLEM_CODES, PROBLEM_CODE_LIST } from "@iccid/core";
import { describe, expect, it, vi } from "vitest";
import * as guards from "./error-guards.js";
import * as errors from "./errors.js";
import { errorFromResponse } from "./problem.js";

const EXPECTED_CLASS: Record<string, string> = {
  // Refusals of malformed HTTP, which the SDK never sends: the generic class.
  bad_request: "APIError",
  request_timeout: "APIError",
  headers_too_large: "APIError",
  missing_api_key: "AuthenticationError",
  invalid_api_key: "AuthenticationError",
  revoked_api_key: "AuthenticationError",
  expired_api_key: "AuthenticationError",
  insufficient_scope: "InsufficientScopeError",
  key_not_rollable: "ConflictError",
  invalid_idempotency_key: "APIError",
  idempotency_key_in_use: "IdempotencyKeyInUseError",
  idempotency_key_reused: "IdempotencyKeyReusedError",
  not_authenticated: "AuthenticationError",
  invalid_credentials: "AuthenticationError",
  no_active_subscription: "SubscriptionRequiredError",
  csrf_rejected: "PermissionDeniedError",
  not_found: "NotFoundError",
  method_not_allowed: "MethodNotAllowedError",
  payload_too_large: "PayloadTooLargeError",
  unsupported_media_type: "UnsupportedMediaTypeError",
  invalid_input: "UnprocessableEntityError",
  malformed_json: "UnprocessableEntityError",
  rate_limited: "RateLimitError",
  quota_exceeded: "QuotaExceededError",
  internal_error: "InternalServerError",
  unavailable: "InternalServerError",
};

describe("errorFromResponse", () => {
  it("has a class for every problem code of the contract", () => {
    expect(Object.keys(EXPECTED_CLASS).sort()).toEqual([...PROBLEM_CODE_LIST].sort());
  });

  it.each(PROBLEM_CODE_LIST)("maps %s to its class with status, code, detail and request id", (code) => {
    const { status } = PROBLEM_CODES[code];
    const body = { type: `/docs/errors#${code}`, title: "t", status, code, detail: "why", request_id: "req_body" };
    const error = errorFromResponse(status, { "x-request-id": "req_1" }, JSON.stringify(body));
    expect(error.name).toBe(EXPECTED_CLASS[code]);
    expect(error).toBeInstanceOf(errors.APIError);
    expect(error).toMatchObject({ status, code, detail: "why", requestId: "req_1", body });
    expect(error.message).toBe(`${status} ${code}: why (request req_1)`);
  });

  it("names the scope an insufficient_scope refusal says the key lacks", () => {
    const error = errorFromResponse(403, {}, JSON.stringify({ code: "insufficient_scope", required_scope: "usage:read" }));
    expect(error).toBeInstanceOf(errors.PermissionDeniedError);
    expect((error as errors.InsufficientScopeError).requiredScope).toBe("usage:read");
    expect(guards.isInsufficientScopeError(error)).toBe(true);
    expect(guards.isSubscriptionRequiredError(error)).toBe(false);
  });

  it("reads Retry-After from the header, else the body", () => {
    const fromHeader = errorFromResponse(429, { "retry-after": "3" }, JSON.stringify({ code: "rate_limited", retry_after: 9 }));
    expect((fromHeader as errors.RateLimitError).retryAfterMs).toBe(3000);
    const fromBody = errorFromResponse(429, {}, JSON.stringify({ code: "rate_limited", retry_after: 9 }));
    expect((fromBody as errors.RateLimitError).retryAfterMs).toBe(9000);
  });

  it("falls back to a generic APIError for statuses without a class, and keeps a text body", () => {
    const error = errorFromResponse(418, {}, "teapot!");
    expect(error.name).toBe("APIError");
    expect(error.detail).toBe("teapot!");
    expect(errorFromResponse(502, {}, "<html>bad gateway</html>").name).toBe("InternalServerError");
  });

  it("names an HTML error page by its title, in one short line", () => {
    const page = `<!DOCTYPE html>\n<html><head><title>404 Not Found</title><style>body{}</style></head>\n<body><h1>Not Found</h1>${"<p>filler</p>".repeat(200)}</body></html>`;
    expect(errorFromResponse(404, { "content-type": "text/html" }, page).detail).toBe('an HTML page, not an API answer: "404 Not Found"');
    const untitled = errorFromResponse(502, {}, `<html><body><h1>Bad   Gateway</h1>\n${"x".repeat(300)}</body></html>`).detail!;
    expect(untitled).toMatch(/^an HTML page, not an API answer: "Bad Gateway x+…"$/);
    expect(untitled.length).toBeLessThan(170);
  });
});

describe("type guards", () => {
  it("follow the class hierarchy", () => {
    const sub = new errors.SubscriptionRequiredError({ status: 403, code: "no_active_subscription" });
    expect(guards.isSubscriptionRequiredError(sub)).toBe(true);
    expect(guards.isPermissionDeniedError(sub)).toBe(true);
    expect(guards.isAPIError(sub)).toBe(true);
    expect(guards.isIccidError(sub)).toBe(true);
    expect(guards.isAuthenticationError(sub)).toBe(false);
    const timeout = new errors.APITimeoutError({ host: "h", scope: "attempt", timeoutMs: 5, attempts: 1 });
    expect(guards.isAPIConnectionError(timeout)).toBe(true);
    expect(guards.isAPIError(timeout)).toBe(false);
  });

  it("work across two copies of the module, where instanceof does not", async () => {
    vi.resetModules();
    const copy = await import("./errors.js"); // a fresh evaluation after resetModules: a second copy
    expect(copy.RateLimitError).not.toBe(errors.RateLimitError);
    const foreign = new copy.RateLimitError({ status: 429, code: "rate_limited" });
    expect(foreign instanceof errors.RateLimitError).toBe(false);
    expect(guards.isRateLimitError(foreign)).toBe(true);
    expect(guards.isAPIError(foreign)).toBe(true);
    expect(guards.isQuotaExceededError(foreign)).toBe(false);
  });

  it("reject look-alikes from other libraries", () => {
    const lookalike = Object.assign(new Error("x"), { name: "RateLimitError", status: 429 });
    expect(guards.isRateLimitError(lookalike)).toBe(false);
    expect(guards.isIccidError(null)).toBe(false);
    expect(guards.isIccidError("RateLimitError")).toBe(false);
  });

  it("give every class a stable name that shows in the message and stack", () => {
    const error = new errors.QuotaExceededError({ status: 429, code: "quota_exceeded", detail: "used up" });
    expect(error.name).toBe("QuotaExceededError");
    expect(String(error)).toBe("QuotaExceededError: 429 quota_exceeded: used up");
    expect(error.stack?.startsWith("QuotaExceededError: ")).toBe(true);
  });
});

describe("status and requestId", () => {
  it("are on every error, as the README promises: the answer's when there was one, else undefined", () => {
    const answered = errorFromResponse(429, { "x-request-id": "req_abc" }, JSON.stringify({ code: "rate_limited", detail: "slow down" }));
    const invalid = new errors.ResponseValidationError({ what: "lookup", status: 200, requestId: "req_def", issues: [], body: {} });
    const unanswered: errors.IccidError[] = [
      new errors.APIConnectionError("could not reach 127.0.0.1:1", { host: "127.0.0.1:1", errno: "ECONNREFUSED" }),
      new errors.APIUserAbortError("stop"),
      new errors.APITimeoutError({ host: "h", scope: "attempt", timeoutMs: 5, attempts: 1 }),
    ];
    // Read through the base class: a `catch (e: IccidError)` needs no narrowing for them.
    const read = (e: errors.IccidError) => ({ status: e.status, requestId: e.requestId });
    expect(read(answered)).toEqual({ status: 429, requestId: "req_abc" });
    expect(read(invalid)).toEqual({ status: 200, requestId: "req_def" });
    expect(read(new errors.ApiKeyError("missing_api_key", "no key"))).toEqual({ status: 401, requestId: undefined });
    for (const e of unanswered) {
      expect(e).toBeInstanceOf(errors.IccidError);
      expect(Object.keys(e)).toEqual(expect.arrayContaining(["status", "requestId"]));
      expect(read(e)).toEqual({ status: undefined, requestId: undefined });
    }
    expect(new errors.APIUserAbortError("stop").cause).toBe("stop");
  });
});
