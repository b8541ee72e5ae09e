/** What a key may be used for: `lookup` (single and batch lookups) and `usage:read` (`GET /api/v1/usage`). */
export type KeyScope = "lookup" | "usage:read";

/** `POST /api/v1/keys` request body. */
export interface CreateKeyRequest {
  /** A name to tell the key by, 1 to 100 characters without control characters. */
  name?: string;
  /** What the key may do, each scope at most once; default: every scope. */
  scopes?: KeyScope[];
  /** When the key stops working (RFC 3339): in the future, at most 5 years ahead; absent or null: never. */
  expires_at?: string | null;
}

/** `POST /api/v1/keys/:id/roll` request body. */
export interface RollKeyRequest {
  /** How long the old key keeps working, 0 to 604800 seconds (7 days); default 0: it stops at once. */
  grace_seconds?: number;
}

/** An API key as listed: never its secret. */
export interface KeyRecord {
  /** The key's id, for `DELETE /api/v1/keys/:id` and `POST /api/v1/keys/:id/roll`. */
  id: string;
  /** The name given at creation, or null. */
  name: string | null;
  /** The first characters of the key, safe to show. */
  prefix: string;
  /** The key's last four characters, safe to show. */
  last4: string;
  /** What the key may do. */
  scopes: KeyScope[];
  /** When the key was created (RFC 3339, UTC). */
  created_at: string;
  /** When the key stops working (RFC 3339, UTC; for a rolled key, the end of its grace period), or null: never. */
  expires_at: string | null;
  /** When the key last authenticated a request, or null if never. */
  last_used_at: string | null;
  /** When the key was revoked, or null while it works. */
  revoked_at: string | null;
}

/** `POST /api/v1/keys`'s and `POST /api/v1/keys/:id/roll`'s answer: the record and, this once, the secret. */
export interface CreatedKey extends KeyRecord {
  /** The full secret, shown only in this response: store it now. */
  key: string;
}

/** `GET /api/v1/keys`'s answer. */
export interface KeyList {
  /** The account's keys, revoked ones included. */
  data: KeyRecord[];
}
