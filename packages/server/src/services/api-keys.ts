import { formatApiKey, isWellFormedApiKey, API_KEY_RANDOM_LENGTH, type CreatedKey, type KeyRecord } from "@iccid/core";
import { newId, randomBase62, sha256Hex } from "../auth/secrets.js";
import { KeyRejected, NotFound } from "../domain/refusals.js";
import type { ApiKeyRow, CredentialStore, KeyGrant, RevokeOutcome } from "../store/store.js";
import { rfc3339, type Clock } from "../time.js";

// last_used_at is a convenience, not an audit log: write it at most once a minute per key, not per request.
const TOUCH_INTERVAL_MS = 60_000;

export function toKeyRecord(row: ApiKeyRow): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    created_at: rfc3339(row.created_at),
    last_used_at: row.last_used_at === null ? null : rfc3339(row.last_used_at),
    revoked_at: row.revoked_at === null ? null : rfc3339(row.revoked_at),
  };
}

/** The shape of every key id (`newId("key")`). */
const KEY_ID = /^key_[0-9A-Za-z]{1,64}$/;

/** API keys: minted with their secret shown once, stored as SHA-256, checked on every Bearer request. */
export class ApiKeys {
  constructor(
    private readonly store: CredentialStore,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string, name: string | null): Promise<CreatedKey> {
    const key = formatApiKey(randomBase62(API_KEY_RANDOM_LENGTH));
    const row: ApiKeyRow = {
      id: newId("key"),
      account_id: accountId,
      name,
      prefix: key.slice(0, 10),
      last4: key.slice(-4),
      hash: sha256Hex(key),
      created_at: this.clock.now(),
      last_used_at: null,
      revoked_at: null,
    };
    await this.store.insertKey(row);
    return { ...toKeyRecord(row), key };
  }

  async list(accountId: string): Promise<KeyRecord[]> {
    return (await this.store.listKeys(accountId)).map(toKeyRecord);
  }

  /**
   * Revokes one of the account's keys; revoking it again is no error. Another account's key and an unknown
   * id are both `NotFound`, so a caller cannot learn which ids exist.
   */
  async revoke(accountId: string, keyId: string): Promise<Exclude<RevokeOutcome, "not_found">> {
    // Not an id this server makes (a NUL in it was a 500 on PostgreSQL): no such key, without asking the store.
    const outcome = KEY_ID.test(keyId) ? await this.store.revokeKey(accountId, keyId, this.clock.now()) : "not_found";
    if (outcome === "not_found") throw new NotFound("api_key", keyId);
    return outcome;
  }

  /** Resolves a presented key ("" when none was sent) to a grant, or refuses saying what is wrong with it. */
  async authenticate(key: string): Promise<KeyGrant> {
    if (key === "") throw new KeyRejected("missing");
    // The checksum rejects mistyped keys without touching the store.
    if (!isWellFormedApiKey(key)) throw new KeyRejected("malformed");
    const grant = await this.store.findKeyGrant(sha256Hex(key));
    if (!grant) throw new KeyRejected("unknown");
    if (grant.key.revoked_at !== null) throw new KeyRejected("revoked");
    const now = this.clock.now();
    if (grant.key.last_used_at === null || now - grant.key.last_used_at >= TOUCH_INTERVAL_MS) {
      await this.store.touchKey(grant.key.id, now);
    }
    return grant;
  }
}
