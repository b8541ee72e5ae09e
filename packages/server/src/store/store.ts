import type { AuditAction, KeyScope, SubscriptionStatus } from "@iccid/core";
import type { DumpRow } from "./tables.js";

// Times are epoch milliseconds throughout the store (BIGINT-friendly, no time-zone parsing on hot paths).

export interface Plan {
  name: string;
  rate_limit: number;
  window_seconds: number;
  monthly_lookups: number;
}

export interface Account {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
}

export interface Subscription {
  account_id: string;
  status: SubscriptionStatus;
  plan: string;
  /** Monthly periods start on this instant's day and time of day. */
  period_anchor: number;
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string | null;
  prefix: string;
  last4: string;
  /** SHA-256 of the full key, hex. The key itself is never stored. */
  hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** What the key may do (stored space-separated). */
  scopes: readonly KeyScope[];
  /** When the key stops working; for a rolled key, the end of its grace period. */
  expires_at: number | null;
  /** The id of the key that replaced this one when it was rolled. */
  replaced_by: string | null;
}

/** Everything the Bearer pipeline needs about a key, read in one query. */
export interface KeyGrant {
  key: ApiKeyRow;
  account: Account;
  subscription: Subscription;
  plan: Plan;
}

/**
 * Who a lookup is charged to: an account with its subscription and plan, and the key its usage is counted
 * under (an API key's id, or the account page's own id for lookups made there with a session).
 */
export type Payer = Pick<KeyGrant, "account" | "subscription" | "plan"> & { key: Pick<ApiKeyRow, "id"> };

export interface SessionRow {
  /** SHA-256 of the cookie secret, hex. */
  hash: string;
  account_id: string;
  created_at: number;
  last_seen_at: number;
  /** Absolute expiry; the idle expiry is derived from last_seen_at. */
  expires_at: number;
}

/** An issuer prefix of the operator's own (`iccid-server issuers import`): it wins over the registry's. */
export interface CustomPrefix {
  prefix: string;
  name: string;
  country_iso2: string | null;
}

export interface NewAccount {
  account: Account;
  subscription: Subscription;
}

export interface Charge {
  account_id: string;
  key_id: string;
  period_start: number;
  bucket_start: number;
  lookups: number;
  quota_limit: number;
  /** The request's proof, for a request sent with an Idempotency-Key: written with the charge, or neither is. */
  proof?: Proof;
}

/**
 * A charge made, or refused over the quota; or, with `replayed`, not made because the request's proof was
 * already there (the same request answered meanwhile): the request is then a replay.
 */
export type ChargeOutcome = { charged: true; used: number } | { charged: false; used: number; replayed?: true };

/** Hours a usage report sums as one bucket: those starting in [from, to). */
export interface UsageSpan {
  from: number;
  to: number;
}

/** One key's usage over one bucket of a report: `bucket` is the bucket's index among the spans asked for. */
export interface UsageSum {
  key_id: string;
  bucket: number;
  requests: number;
  lookups: number;
}

export type RevokeOutcome = "revoked" | "already_revoked" | "not_found";

/** A roll happened, or why not: no such key of the account's, or one that may not be rolled. */
export type RollOutcome = "rolled" | "not_found" | "revoked" | "expired" | "rolled_already";

/** One audit event as stored. Never a secret, a password or a key's value. */
export interface AuditRow {
  id: string;
  /** The account it concerns; null for server-wide actions (prefix imports). */
  account_id: string | null;
  at: number;
  action: AuditAction;
  actor_type: "session" | "operator" | "system";
  actor_id: string | null;
  ip: string | null;
  user_agent: string | null;
  target: string | null;
  /** session.throttled: the attempts counted when the throttle began refusing; else null. */
  attempts: number | null;
}

/** Which events to read, newest first: `before` is the (at, id) of the last event of the page before. */
export interface AuditFilter {
  /** One account's events; absent: every event, server-wide ones included. */
  accountId?: string;
  since?: number;
  before?: { at: number; id: string };
  limit: number;
}

/** Opening, closing and probing the store. */
/** The schema versions a migrate found and left (equal when it applied nothing). */
export interface SchemaVersions {
  from: number;
  to: number;
}

export interface StoreLifecycle {
  migrate(): Promise<SchemaVersions>;
  close(): Promise<void>;
  /** Cheap liveness probe. */
  ping(): Promise<void>;
  /**
   * Readiness probe: one small real write; throws StoreUnavailable while the store cannot take one, and
   * ChargesStalled while charges are not being committed within the query timeout.
   */
  checkWritable(at: number): Promise<void>;
}

/** Plans, accounts and their subscriptions: what the operator command and sign-up manage. */
export interface AccountStore {
  upsertPlan(plan: Plan): Promise<void>;
  getPlan(name: string): Promise<Plan | undefined>;
  listPlans(): Promise<Plan[]>;
  /** Throws the EmailTaken refusal when the email is in use (also when another instance won a race for it). */
  createAccount(account: NewAccount): Promise<void>;
  countAccounts(): Promise<number>;
  findAccountByEmail(email: string): Promise<Account | undefined>;
  listAccounts(): Promise<Array<Account & { subscription: Subscription }>>;
  getSubscription(accountId: string): Promise<Subscription | undefined>;
  setSubscription(accountId: string, changes: Partial<Pick<Subscription, "status" | "plan">>): Promise<void>;
  /** Replaces the password hash and ends the account's sessions, in one transaction. */
  setPasswordHash(accountId: string, passwordHash: string): Promise<void>;
}

/** API keys and web sessions: the credentials. `findKeyGrant` is on every API request's path. */
export interface CredentialStore {
  insertKey(key: ApiKeyRow): Promise<void>;
  findKeyGrant(hash: string): Promise<KeyGrant | undefined>;
  listKeys(accountId: string): Promise<ApiKeyRow[]>;
  /** A key by its id, whichever account's (the operator's commands). */
  findKey(keyId: string): Promise<ApiKeyRow | undefined>;
  revokeKey(accountId: string, keyId: string, at: number): Promise<RevokeOutcome>;
  /**
   * Replaces a working key with `successor`, in one transaction: the old key stops at `oldKeyExpiresAt`
   * (or its own earlier expiry). Of two rolls of one key at once, exactly one succeeds.
   */
  rollKey(accountId: string, keyId: string, successor: ApiKeyRow, oldKeyExpiresAt: number, at: number): Promise<RollOutcome>;
  touchKey(keyId: string, at: number): Promise<void>;
  insertSession(session: SessionRow): Promise<void>;
  findSession(hash: string): Promise<{ session: SessionRow; account: Account } | undefined>;
  touchSession(hash: string, at: number): Promise<void>;
  deleteSession(hash: string): Promise<void>;
  /** Ends every session of the account; answers how many there were. */
  deleteSessions(accountId: string): Promise<number>;
  deleteExpiredSessions(now: number, idleMs: number): Promise<number>;
}

/** The audit trail: who did what to an account, from where. */
export interface AuditStore {
  insertAuditEvent(event: AuditRow): Promise<void>;
  auditEvents(filter: AuditFilter): Promise<AuditRow[]>;
  /** Deletes the events older than `at`; answers how many there were. */
  deleteAuditEventsBefore(at: number): Promise<number>;
}

/** The operator's own issuer prefixes, which the decoder follows. */
export interface PrefixStore {
  replaceCustomPrefixes(prefixes: CustomPrefix[]): Promise<void>;
  upsertCustomPrefixes(prefixes: CustomPrefix[]): Promise<void>;
  listCustomPrefixes(): Promise<CustomPrefix[]>;
  /** Removes these prefixes; answers how many there were. */
  removeCustomPrefixes(prefixes: readonly string[]): Promise<number>;
  /** A number that moves whenever the custom prefixes change (one row read: cheap enough to poll). */
  customPrefixGeneration(): Promise<number>;
}

/** Lookups of one unknown issuer prefix (the ICCID's first seven digits) on one UTC day. */
export interface UnknownPrefixCount {
  /** The UTC day's start, epoch ms. */
  day: number;
  prefix: string;
  count: number;
  first_seen: number;
  last_seen: number;
}

/** The count of lookups whose issuer is unknown, by prefix, for the operator to learn from. */
export interface UnknownPrefixStore {
  /** Adds these counts to the stored ones (first and last seen widened), in one transaction. */
  addUnknownPrefixes(counts: readonly UnknownPrefixCount[]): Promise<void>;
  /** Each prefix's counts summed over the days from `sinceDay` on, most seen first. */
  unknownPrefixes(sinceDay: number): Promise<Array<Omit<UnknownPrefixCount, "day">>>;
}

/** Quota and usage: charged on every answered lookup, read by the usage report. */
export interface MeterStore {
  /**
   * Checks the quota and meters one answered request in one transaction: either the lookups fit and both
   * the quota counter and the usage bucket move, or nothing is written.
   */
  charge(charge: Charge): Promise<ChargeOutcome>;
  quotaUsed(accountId: string, periodStart: number): Promise<number>;
  /**
   * The account's usage summed by the store, by key and span, over spans adjacent and in order: one sum
   * per key and span that holds usage, in no particular order.
   */
  usageSums(accountId: string, spans: readonly UsageSpan[]): Promise<UsageSum[]>;
}

/**
 * The proof that a request sent with an Idempotency-Key was answered and charged: never its answer (a
 * replay runs again), only what tells a replay from another request. Fixed-size whatever the request.
 */
export interface Proof {
  /** The first 16 bytes of SHA-256 over the account, the route and the Idempotency-Key. */
  key: Buffer;
  /** The first 16 bytes of SHA-256 over the request's body: the same body is the same request. */
  fingerprint: Buffer;
  /** The status the request was answered. */
  status: number;
  /** The lookups it was charged. */
  lookups: number;
  at: number;
  /** Key creation only: the created key's record without its secret, which its replay answers. */
  answer?: string;
}

/** A proof as read back for a request with the same key: enough to tell a replay from another body. */
export type ProvenRequest = Pick<Proof, "fingerprint" | "status"> & { answer: string | null };

/**
 * The proofs of the requests sent with an Idempotency-Key. A lookup's proof is written by its charge, in
 * the same transaction (Charge.proof); key creation, which charges nothing, keeps its own.
 */
export interface IdempotencyStore {
  /** The proof under `key` made at or after `since`, if any. */
  findProof(key: Buffer, since: number): Promise<ProvenRequest | undefined>;
  /** Keeps a proof not made by a charge (key creation), unless a live one is there: answers whether it was kept. */
  keepProof(proof: Proof): Promise<boolean>;
  /** Deletes up to `limit` of the oldest proofs made before `at`, in one short transaction: answers how many. */
  deleteProofsBefore(at: number, limit: number): Promise<number>;
  /** Hands pages freed by deletions back to the file system, a few at a time; a no-op where the store does this itself. */
  reclaimSpace(): Promise<void>;
}

/** Moving every row between stores (`iccid-server export` / `import`). */
export interface DataMove {
  /** Every row of every table, in foreign-key order. */
  dump(): AsyncIterable<DumpRow>;
  /** Loads dumped rows into an empty store, in one transaction. */
  restore(rows: AsyncIterable<DumpRow>): Promise<number>;
}

/**
 * The persistence boundary, by role. Async so that a networked store (PostgreSQL) fits beside the
 * embedded SQLite one without touching the services above it.
 */
export interface Store extends StoreLifecycle, AccountStore, CredentialStore, AuditStore, PrefixStore, UnknownPrefixStore, MeterStore, DataMove {
  readonly idempotency: IdempotencyStore;
}
