import { formatApiKey, isWellFormedApiKey, API_KEY_RANDOM_LENGTH, type CreatedKey, type KeyRecord } from "@iccid/core";
import { newId, randomBase62, sha256Hex } from "../auth/secrets.js";
import { HttpProblem } from "../http/problem.js";
import type { ApiKeyRow, KeyGrant, RevokeOutcome, Store } from "../store/store.js";
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

const UNAUTHORIZED = { "WWW-Authenticate": 'Bearer realm="iccid"' };
const INVALID = { "WWW-Authenticate": 'Bearer realm="iccid", error="invalid_token"' };

/** API keys: minted with their secret shown once, stored as SHA-256, checked on every Bearer request. */
/** The shape of every key id (`newId("key")`). */
const KEY_ID = /^key_[0-9A-Za-z]{1,64}$/;

export class ApiKeys {
  constructor(
    private readonly store: Store,
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

  async revoke(accountId: string, keyId: string): Promise<RevokeOutcome> {
    // Not an id this server makes (a NUL in it was a 500 on PostgreSQL): no such key, without asking the store.
    if (!KEY_ID.test(keyId)) return "not_found";
    return this.store.revokeKey(accountId, keyId, this.clock.now());
  }

  /** Resolves an Authorization header to a grant, or throws the 401 that says what is wrong. */
  async authenticate(authorization: string): Promise<KeyGrant> {
    const match = /^Bearer[ ]+(\S*)\s*$/i.exec(authorization);
    const key = match?.[1] ?? "";
    if (key === "") {
      throw new HttpProblem("missing_api_key", "Send your API key as Authorization: Bearer <key>.", { headers: UNAUTHORIZED });
    }
    // The checksum rejects mistyped keys without touching the store.
    if (!isWellFormedApiKey(key)) {
      throw new HttpProblem("invalid_api_key", "The API key is malformed.", { headers: INVALID });
    }
    const grant = await this.store.findKeyGrant(sha256Hex(key));
    if (!grant) throw new HttpProblem("invalid_api_key", "The API key is not known.", { headers: INVALID });
    if (grant.key.revoked_at !== null) {
      throw new HttpProblem("revoked_api_key", "The API key was revoked.", { headers: INVALID });
    }
    const now = this.clock.now();
    if (grant.key.last_used_at === null || now - grant.key.last_used_at >= TOUCH_INTERVAL_MS) {
      await this.store.touchKey(grant.key.id, now);
    }
    return grant;
  }
}
