import {
  API_KEY_RANDOM_LENGTH,
  formatApiKey,
  isWellFormedApiKey,
  KEY_SCOPES,
  MAX_KEY_LIFETIME_DAYS,
  type CreatedKey,
  type KeyRecord,
  type KeyScope,
} from "@iccid/core";
import { newId, randomBase62, sha256Hex } from "../auth/secrets.js";
import { SYSTEM_ORIGIN, type AuditOrigin } from "../domain/audit-origin.js";
import { InsufficientScope, InvalidInput, KeyNotRollable, KeyRejected, NotFound } from "../domain/refusals.js";
import type { ApiKeyRow, AuditStore, CredentialStore, KeyGrant, RevokeOutcome } from "../store/store.js";
import { rfc3339, type Clock } from "../time.js";
import { AuditTrail } from "./audit-trail.js";

// last_used_at is a convenience, not an audit log: write it at most once a minute per key, not per request.
const TOUCH_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

export function toKeyRecord(row: ApiKeyRow): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    scopes: [...row.scopes],
    created_at: rfc3339(row.created_at),
    expires_at: row.expires_at === null ? null : rfc3339(row.expires_at),
    last_used_at: row.last_used_at === null ? null : rfc3339(row.last_used_at),
    revoked_at: row.revoked_at === null ? null : rfc3339(row.revoked_at),
  };
}

/** What a new key may do and until when; who asked, for the audit trail. */
export interface KeyOptions {
  /** Default: every scope. */
  scopes?: readonly KeyScope[] | undefined;
  /** RFC 3339; absent or null: never expires. */
  expiresAt?: string | null | undefined;
  origin?: AuditOrigin;
}

/** The shape of every key id (`newId("key")`). */
const KEY_ID = /^key_[0-9A-Za-z]{1,64}$/;

/** API keys: minted with their secret shown once, stored as SHA-256, checked on every Bearer request. */
export class ApiKeys {
  constructor(
    private readonly store: CredentialStore & AuditStore,
    private readonly clock: Clock,
    private readonly audit = new AuditTrail(store, clock),
  ) {}

  async create(accountId: string, name: string | null, options: KeyOptions = {}): Promise<CreatedKey> {
    const now = this.clock.now();
    const created = this.#mint(accountId, name, options.scopes ?? KEY_SCOPES, this.#expiry(options.expiresAt, now), now);
    await this.store.insertKey(created.row);
    await this.audit.record(accountId, "key.created", options.origin ?? SYSTEM_ORIGIN, created.row.id);
    return { ...toKeyRecord(created.row), key: created.key };
  }

  /** Revokes every key of the account still working; answers how many (each key.revoked on the trail). */
  async revokeAll(accountId: string, origin: AuditOrigin = SYSTEM_ORIGIN): Promise<number> {
    const working = (await this.store.listKeys(accountId)).filter((k) => k.revoked_at === null);
    for (const key of working) await this.revoke(accountId, key.id, origin);
    return working.length;
  }

  async list(accountId: string): Promise<KeyRecord[]> {
    return (await this.store.listKeys(accountId)).map(toKeyRecord);
  }

  /**
   * Replaces a working key by a new one with its name, scopes and expiry, the secret shown once. The old
   * key keeps working for `graceSeconds`, then is refused as expired. A revoked, expired or already rolled
   * key is refused with KeyNotRollable; another account's key and an unknown id with NotFound.
   */
  async roll(accountId: string, keyId: string, graceSeconds: number, origin: AuditOrigin = SYSTEM_ORIGIN): Promise<CreatedKey> {
    const old = KEY_ID.test(keyId) ? (await this.store.listKeys(accountId)).find((k) => k.id === keyId) : undefined;
    if (!old) throw new NotFound("api_key", keyId);
    const now = this.clock.now();
    const successor = this.#mint(accountId, old.name, old.scopes, old.expires_at, now);
    const outcome = await this.store.rollKey(accountId, keyId, successor.row, now + graceSeconds * 1000, now);
    if (outcome === "not_found") throw new NotFound("api_key", keyId);
    if (outcome !== "rolled") throw new KeyNotRollable(outcome);
    await this.audit.record(accountId, "key.rolled", origin, keyId);
    return { ...toKeyRecord(successor.row), key: successor.key };
  }

  /**
   * Revokes one of the account's keys; revoking it again is no error. Another account's key and an unknown
   * id are both `NotFound`, so a caller cannot learn which ids exist.
   */
  async revoke(accountId: string, keyId: string, origin: AuditOrigin = SYSTEM_ORIGIN): Promise<Exclude<RevokeOutcome, "not_found">> {
    // Not an id this server makes (a NUL in it was a 500 on PostgreSQL): no such key, without asking the store.
    const outcome = KEY_ID.test(keyId) ? await this.store.revokeKey(accountId, keyId, this.clock.now()) : "not_found";
    if (outcome === "not_found") throw new NotFound("api_key", keyId);
    if (outcome === "revoked") await this.audit.record(accountId, "key.revoked", origin, keyId);
    return outcome;
  }

  /**
   * Resolves a presented key ("" when none was sent) to a grant, or refuses saying what is wrong with it:
   * unknown, revoked, expired (past expires_at, or rolled and past its grace), or lacking `scope`.
   */
  async authenticate(key: string, scope?: KeyScope): Promise<KeyGrant> {
    if (key === "") throw new KeyRejected("missing");
    // The checksum rejects mistyped keys without touching the store.
    if (!isWellFormedApiKey(key)) throw new KeyRejected("malformed");
    const grant = await this.store.findKeyGrant(sha256Hex(key));
    if (!grant) throw new KeyRejected("unknown");
    if (grant.key.revoked_at !== null) throw new KeyRejected("revoked");
    const now = this.clock.now();
    if (grant.key.expires_at !== null && now >= grant.key.expires_at) throw new KeyRejected("expired");
    if (scope !== undefined && !grant.key.scopes.includes(scope)) throw new InsufficientScope(scope);
    if (grant.key.last_used_at === null || now - grant.key.last_used_at >= TOUCH_INTERVAL_MS) {
      await this.store.touchKey(grant.key.id, now);
    }
    return grant;
  }

  #mint(accountId: string, name: string | null, scopes: readonly KeyScope[], expiresAt: number | null, now: number): { row: ApiKeyRow; key: string } {
    const key = formatApiKey(randomBase62(API_KEY_RANDOM_LENGTH));
    const row: ApiKeyRow = {
      id: newId("key"),
      account_id: accountId,
      name,
      prefix: key.slice(0, 10),
      last4: key.slice(-4),
      hash: sha256Hex(key),
      created_at: now,
      last_used_at: null,
      revoked_at: null,
      // In the contract's order, whatever order they were asked in.
      scopes: KEY_SCOPES.filter((s) => scopes.includes(s)),
      expires_at: expiresAt,
      replaced_by: null,
    };
    return { row, key };
  }

  /** An expires_at as asked (RFC 3339) checked: in the future, at most 5 years ahead. */
  #expiry(expiresAt: string | null | undefined, now: number): number | null {
    if (expiresAt === undefined || expiresAt === null) return null;
    const at = Date.parse(expiresAt);
    if (!Number.isFinite(at)) throw expiryIssue("invalid_datetime", "must be an RFC 3339 date and time");
    if (at <= now) throw expiryIssue("in_past", "must be in the future");
    if (at > now + MAX_KEY_LIFETIME_DAYS * DAY_MS) throw expiryIssue("too_far", "must be at most 5 years ahead");
    return at;
  }
}

function expiryIssue(code: string, detail: string): InvalidInput {
  return new InvalidInput([{ field: ["expires_at"], code, detail }]);
}
