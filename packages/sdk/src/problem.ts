import type { FieldError } from "@iccid/core/types";
import {
  APIError,
  AuthenticationError,
  ConflictError,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  InsufficientScopeError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitError,
  SubscriptionRequiredError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
  type APIErrorInit,
  type ResponseHeaders,
} from "./errors.js";
import { parseRateLimitFields, parseRetryAfter } from "./rate-limit-fields.js";

// Turns an error response into the error class of its status and code. The problem body is read leniently
// (not with the core's strict Problem schema): a proxy's HTML 502 or a code added in a later server
// version must still become the right class, with whatever fields could be read.

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((e): e is Record<string, unknown> => typeof e === "object" && e !== null)
    .map((e) => ({ pointer: text(e.pointer) ?? "", code: text(e.code) ?? "", detail: text(e.detail) ?? "" }));
}

function parseBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * A body that is not a problem document, as one short line. An HTML page (a proxy's, or another web
 * server's when the base URL is wrong) is named by its title, never passed on whole.
 */
function textDetail(raw: string, headers: ResponseHeaders): string | undefined {
  const html = /html/i.test(headers["content-type"] ?? "") || /^\s*</.test(raw);
  const text = (html ? (/<title[^>]*>([^<]*)</i.exec(raw)?.[1] ?? raw.replace(/<[^>]*>/g, " ")) : raw).replace(/\s+/g, " ").trim();
  if (text === "") return undefined;
  const short = text.length > 120 ? `${text.slice(0, 119)}…` : text;
  return html ? `an HTML page, not an API answer: "${short}"` : short;
}

/** The error for a non-2xx response. */
export function errorFromResponse(status: number, headers: ResponseHeaders, raw: string): APIError {
  const body = parseBody(raw);
  const problem = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const code = text(problem.code);
  const init: APIErrorInit = {
    status,
    code,
    title: text(problem.title),
    detail: text(problem.detail) ?? (typeof body === "string" ? textDetail(body, headers) : undefined),
    requestId: headers["x-request-id"] ?? text(problem.request_id),
    headers,
    body,
  };
  const retryAfterMs =
    parseRetryAfter(headers["retry-after"]) ??
    (typeof problem.retry_after === "number" ? problem.retry_after * 1000 : undefined);

  switch (status) {
    case 401:
      return new AuthenticationError(init);
    case 403:
      if (code === "insufficient_scope") return new InsufficientScopeError({ ...init, requiredScope: text(problem.required_scope) });
      return code === "no_active_subscription" ? new SubscriptionRequiredError(init) : new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return code === "idempotency_key_in_use" ? new IdempotencyKeyInUseError({ ...init, retryAfterMs }) : new ConflictError(init);
    case 405:
      return new MethodNotAllowedError(init);
    case 413:
      return new PayloadTooLargeError(init);
    case 415:
      return new UnsupportedMediaTypeError(init);
    case 422:
      if (code === "idempotency_key_reused") return new IdempotencyKeyReusedError({ ...init, errors: fieldErrors(problem.errors) });
      return new UnprocessableEntityError({ ...init, errors: fieldErrors(problem.errors) });
    case 429: {
      if (code === "quota_exceeded") {
        const resetsAt = text(problem.resets_at);
        return new QuotaExceededError({ ...init, retryAfterMs, resetsAt: resetsAt ? new Date(resetsAt) : undefined });
      }
      return new RateLimitError({ ...init, retryAfterMs, rateLimit: parseRateLimitFields(headers) });
    }
  }
  return status >= 500 ? new InternalServerError(init) : new APIError(init);
}
