import { BRAND } from "./error-brand.js";
import {
  type IccidError,
  type APIError,
  type AuthenticationError,
  type ApiKeyError,
  type PermissionDeniedError,
  type SubscriptionRequiredError,
  type InsufficientScopeError,
  type ConflictError,
  type IdempotencyKeyInUseError,
  type IdempotencyKeyReusedError,
  type KeyAlreadyCreatedError,
  type NotFoundError,
  type MethodNotAllowedError,
  type PayloadTooLargeError,
  type UnsupportedMediaTypeError,
  type UnprocessableEntityError,
  type RateLimitError,
  type QuotaExceededError,
  type InternalServerError,
  type APIConnectionError,
  type APITimeoutError,
  type APIUserAbortError,
  type ResponseValidationError,
} from "./errors.js";

// The SDK's errors told apart by name along the prototype chain, so that `isRateLimitError(e)` holds even
// when `e` comes from another copy of errors.ts (two installed versions, a bundler duplicating it), where
// `instanceof` would say false.

function isNamed(value: unknown, name: string): boolean {
  if (typeof value !== "object" || value === null || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
  for (let p: unknown = Object.getPrototypeOf(value); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.hasOwn(p as object, "name") && (p as { name: unknown }).name === name) return true;
  }
  return false;
}

type Guard<T> = (value: unknown) => value is T;
const guard = <T>(name: string): Guard<T> => (value: unknown): value is T => isNamed(value, name);

export const isIccidError = guard<IccidError>("IccidError");
export const isAPIError = guard<APIError>("APIError");
export const isAuthenticationError = guard<AuthenticationError>("AuthenticationError");
export const isApiKeyError = guard<ApiKeyError>("ApiKeyError");
export const isPermissionDeniedError = guard<PermissionDeniedError>("PermissionDeniedError");
export const isSubscriptionRequiredError = guard<SubscriptionRequiredError>("SubscriptionRequiredError");
export const isInsufficientScopeError = guard<InsufficientScopeError>("InsufficientScopeError");
export const isConflictError = guard<ConflictError>("ConflictError");
export const isIdempotencyKeyInUseError = guard<IdempotencyKeyInUseError>("IdempotencyKeyInUseError");
export const isIdempotencyKeyReusedError = guard<IdempotencyKeyReusedError>("IdempotencyKeyReusedError");
export const isKeyAlreadyCreatedError = guard<KeyAlreadyCreatedError>("KeyAlreadyCreatedError");
export const isNotFoundError = guard<NotFoundError>("NotFoundError");
export const isMethodNotAllowedError = guard<MethodNotAllowedError>("MethodNotAllowedError");
export const isPayloadTooLargeError = guard<PayloadTooLargeError>("PayloadTooLargeError");
export const isUnsupportedMediaTypeError = guard<UnsupportedMediaTypeError>("UnsupportedMediaTypeError");
export const isUnprocessableEntityError = guard<UnprocessableEntityError>("UnprocessableEntityError");
export const isRateLimitError = guard<RateLimitError>("RateLimitError");
export const isQuotaExceededError = guard<QuotaExceededError>("QuotaExceededError");
export const isInternalServerError = guard<InternalServerError>("InternalServerError");
export const isAPIConnectionError = guard<APIConnectionError>("APIConnectionError");
export const isAPITimeoutError = guard<APITimeoutError>("APITimeoutError");
export const isAPIUserAbortError = guard<APIUserAbortError>("APIUserAbortError");
export const isResponseValidationError = guard<ResponseValidationError>("ResponseValidationError");
