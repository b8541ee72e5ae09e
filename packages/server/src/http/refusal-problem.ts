import {
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  InvalidCredentials,
  InsufficientScope,
  InvalidInput,
  KeyNotRollable,
  KeyRejected,
  NotFound,
  QuotaExceeded,
  RateLimited,
  SubscriptionInactive,
  type KeyRejection,
  type Missing,
  type RateBudget,
  type Refusal,
  type RollRefusal,
} from "../domain/refusals.js";
import { rfc3339 } from "../time.js";
import { HttpProblem, jsonPointer } from "./problem.js";
import { rateLimitFields } from "./rate-limit-fields.js";

// RFC 6750: a request without a key gets the bare challenge; a key that was sent and failed gets
// error="invalid_token", so a client can tell "send a key" from "this key will never work".
const CHALLENGE = 'Bearer realm="iccid"';
const INVALID_TOKEN = 'Bearer realm="iccid", error="invalid_token"';

const KEY_DETAILS: Record<KeyRejection, string> = {
  missing: "Send your API key as Authorization: Bearer <key>.",
  malformed: "The API key is malformed.",
  unknown: "The API key is not known.",
  revoked: "The API key was revoked.",
  expired: "The API key has expired.",
};

const ROLL_DETAILS: Record<RollRefusal, string> = {
  revoked: "The API key was revoked; create a new one instead.",
  expired: "The API key has expired; create a new one instead.",
  rolled_already: "The API key was rolled already; roll its successor instead.",
};

// Never the looked-up value itself: the client sent it and gains nothing from having it echoed.
const MISSING_DETAILS: Record<Missing, string> = {
  account: "No such account.",
  plan: "No such plan.",
  api_key: "No such API key.",
};

const BUDGET_WORDS: Record<RateBudget, string> = {
  requests: "requests",
  usage_reads: "usage reads",
  sign_in: "sign-in attempts",
};

/**
 * The HTTP edge's one translation of domain refusals into problem details: status (from the problem
 * code), detail words for API clients, members such as `errors[]` with JSON Pointers, and the headers that
 * belong to the answer (WWW-Authenticate, Retry-After, RateLimit fields). The problem middleware calls it.
 */
export function problemForRefusal(refusal: Refusal): HttpProblem {
  if (refusal instanceof KeyRejected) {
    const challenge = refusal.reason === "missing" ? CHALLENGE : INVALID_TOKEN;
    return new HttpProblem(refusal.code, KEY_DETAILS[refusal.reason], { headers: { "WWW-Authenticate": challenge } });
  }
  if (refusal instanceof InsufficientScope) {
    // RFC 6750 §3.1: the scope the token lacks, in the challenge too.
    return new HttpProblem(refusal.code, `The API key lacks the ${refusal.scope} scope.`, {
      required_scope: refusal.scope,
      headers: { "WWW-Authenticate": `Bearer realm="iccid", error="insufficient_scope", scope="${refusal.scope}"` },
    });
  }
  if (refusal instanceof KeyNotRollable) return new HttpProblem(refusal.code, ROLL_DETAILS[refusal.reason]);
  if (refusal instanceof SubscriptionInactive) {
    return new HttpProblem(refusal.code, `The account's subscription is ${refusal.status}.`);
  }
  if (refusal instanceof InvalidCredentials) return new HttpProblem(refusal.code, "The email or password is wrong.");
  if (refusal instanceof RateLimited) return rateLimited(refusal);
  if (refusal instanceof QuotaExceeded) {
    const retryAfter = refusal.retryAfterSeconds;
    return new HttpProblem(refusal.code, refusal.message, {
      retry_after: retryAfter,
      resets_at: rfc3339(refusal.resetsAt),
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  if (refusal instanceof InvalidInput) {
    const errors = refusal.issues.map((issue) => ({ pointer: jsonPointer(issue.field), code: issue.code, detail: issue.detail }));
    return new HttpProblem(refusal.code, refusal.message, { errors });
  }
  if (refusal instanceof IdempotencyKeyReused) {
    return new HttpProblem(refusal.code, "This Idempotency-Key was used in the last 24 hours with another body; use a new key for a new request.");
  }
  if (refusal instanceof IdempotencyKeyInUse) {
    return new HttpProblem(refusal.code, "A request with this Idempotency-Key is still being answered; retry after Retry-After.", {
      retry_after: refusal.retryAfterSeconds,
      headers: { "Retry-After": String(refusal.retryAfterSeconds) },
    });
  }
  if (refusal instanceof NotFound) return new HttpProblem(refusal.code, MISSING_DETAILS[refusal.missing]);
  // A refusal without wording of its own here still answers with its code; its message is domain words.
  return new HttpProblem(refusal.code, refusal.message);
}

/** 429 with Retry-After; the account's own budgets also show their RateLimit fields. */
function rateLimited(refusal: RateLimited): HttpProblem {
  const { budget, retryAfterSeconds, state } = refusal;
  const words = BUDGET_WORDS[budget];
  const detail = state ? `Over ${state.limit} ${words} per ${state.windowSeconds} s.` : `Too many ${words}; try again later.`;
  const fields = state ? rateLimitFields(state, budget === "usage_reads" ? "usage" : "default") : {};
  return new HttpProblem(refusal.code, detail, {
    retry_after: retryAfterSeconds,
    headers: { ...fields, "Retry-After": String(retryAfterSeconds) },
  });
}
