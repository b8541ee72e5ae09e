import { counted, formatCount, type KeyScope, type ProblemCode, type SubscriptionStatus } from "@iccid/core";
import type { RateLimitState } from "./rate-limit-state.js";

/**
 * A request the domain declines, with the facts of why and nothing about how to say it: no statuses,
 * headers or JSON pointers. Services and limits throw these; each edge words them for its audience
 * (http/answer-writer.ts for HTTP clients, cli/refusal-words.ts for operators). `code` is the
 * contract's problem code, so every edge names the same refusal the same way; `message` is plain words
 * for an operator or a log.
 */
export abstract class Refusal extends Error {
  abstract readonly code: ProblemCode;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Why an API key was not accepted. `missing` and `malformed` are decided without asking the store. */
export type KeyRejection = "missing" | "malformed" | "unknown" | "revoked" | "expired";

const KEY_REJECTION_CODES = {
  missing: "missing_api_key",
  malformed: "invalid_api_key",
  unknown: "invalid_api_key",
  revoked: "revoked_api_key",
  expired: "expired_api_key",
} as const satisfies Record<KeyRejection, ProblemCode>;

const KEY_REJECTION_WORDS: Record<KeyRejection, string> = {
  missing: "no API key was presented",
  malformed: "the API key is malformed",
  unknown: "the API key is not known",
  revoked: "the API key was revoked",
  expired: "the API key has expired",
};

export class KeyRejected extends Refusal {
  readonly code: ProblemCode;

  constructor(readonly reason: KeyRejection) {
    super(KEY_REJECTION_WORDS[reason]);
    this.code = KEY_REJECTION_CODES[reason];
  }
}

/** The key works but was not given the scope this request needs; nothing was charged. */
export class InsufficientScope extends Refusal {
  readonly code = "insufficient_scope";

  constructor(readonly scope: KeyScope) {
    super(`the API key lacks the ${scope} scope`);
  }
}

/** Why a key cannot be rolled: only a working key that was not rolled already can be. */
export type RollRefusal = "revoked" | "expired" | "rolled_already";

const ROLL_REFUSAL_WORDS: Record<RollRefusal, string> = {
  revoked: "the API key was revoked",
  expired: "the API key has expired",
  rolled_already: "the API key was rolled already",
};

export class KeyNotRollable extends Refusal {
  readonly code = "key_not_rollable";

  constructor(readonly reason: RollRefusal) {
    super(`${ROLL_REFUSAL_WORDS[reason]}: it cannot be rolled`);
  }
}

/** The key is good but its account may not make requests (canceled, past due). */
export class SubscriptionInactive extends Refusal {
  readonly code = "no_active_subscription";

  constructor(readonly status: SubscriptionStatus) {
    super(`the account's subscription is ${status}`);
  }
}

/** Sign-in with an unknown email or a wrong password: deliberately not saying which. */
export class InvalidCredentials extends Refusal {
  readonly code = "invalid_credentials";

  constructor() {
    super("the email or password is wrong");
  }
}

/** Which budget ran out: the plan's request rate, the usage-read budget, or sign-in attempts. */
export type RateBudget = "requests" | "usage_reads" | "sign_in";

export class RateLimited extends Refusal {
  readonly code = "rate_limited";

  constructor(
    readonly budget: RateBudget,
    /** Whole seconds (≥ 1) before a retry can succeed. */
    readonly retryAfterSeconds: number,
    /** The budget's state, when it is one an account is told about (sign-in attempts are not). */
    readonly state?: RateLimitState,
  ) {
    super(`the ${budget.replace("_", " ")} budget is used up; retry in ${retryAfterSeconds} s`);
  }
}

/** An Idempotency-Key used in the last 24 hours for a request with another body; nothing was run. */
export class IdempotencyKeyReused extends Refusal {
  readonly code = "idempotency_key_reused";

  constructor() {
    super("this idempotency key was used for a request with another body");
  }
}

/** The first request with this Idempotency-Key is still being answered; nothing was run. */
export class IdempotencyKeyInUse extends Refusal {
  readonly code = "idempotency_key_in_use";

  constructor(
    /** Whole seconds (≥ 1) before asking again is likely to find the first request's answer. */
    readonly retryAfterSeconds: number,
  ) {
    super(`a request with this idempotency key is still being answered; retry in ${retryAfterSeconds} s`);
  }
}

/** The period's lookups would be exceeded; nothing was charged. */
export class QuotaExceeded extends Refusal {
  readonly code = "quota_exceeded";

  constructor(
    readonly needed: number,
    readonly remaining: number,
    readonly limit: number,
    /** When the next period starts (epoch ms), and the whole seconds (≥ 1) until then. */
    readonly resetsAt: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`This request needs ${counted(needed, "lookup")} but ${formatCount(remaining)} of ${formatCount(limit)} remain this period.`);
  }
}

/** One field that failed: its path from the input's root (keys and indexes), a short code and words. */
export interface FieldIssue {
  field: ReadonlyArray<PropertyKey>;
  code: string;
  detail: string;
}

/** The input breaks a rule; names every offending field. The message defaults to the first, as `field: detail`. */
export class InvalidInput extends Refusal {
  readonly code = "invalid_input";

  constructor(
    readonly issues: readonly [FieldIssue, ...FieldIssue[]],
    message = `${issues[0].field.map(String).join(".")}: ${issues[0].detail}`,
  ) {
    super(message);
  }
}

/** The email belongs to another account already (also when another instance won a race for it). */
export class EmailTaken extends InvalidInput {
  constructor(readonly email: string) {
    super([{ field: ["email"], code: "taken", detail: "is in use by another account" }], `an account with email ${email} already exists`);
  }
}

/** What a missing thing was looked up by: an account by email, a plan by name, an API key by id. */
export type Missing = "account" | "plan" | "api_key";

const MISSING_WORDS: Record<Missing, (key: string) => string> = {
  account: (email) => `no account with email ${email}`,
  plan: (name) => `unknown plan ${name}`,
  api_key: (id) => `no API key ${id}`,
};

export class NotFound extends Refusal {
  readonly code = "not_found";

  constructor(
    readonly missing: Missing,
    readonly key: string,
  ) {
    super(MISSING_WORDS[missing](key));
  }
}
