/** `POST /api/v1/keys` request body. */
export interface CreateKeyRequest {
  /** A name to tell the key by, 1 to 100 characters without control characters. */
  name?: string;
}

/** An API key as listed: never its secret. */
export interface KeyRecord {
  /** The key's id, for `DELETE /api/v1/keys/:id`. */
  id: string;
  /** The name given at creation, or null. */
  name: string | null;
  /** The first characters of the key, safe to show. */
  prefix: string;
  /** The key's last four characters, safe to show. */
  last4: string;
  /** When the key was created (RFC 3339, UTC). */
  created_at: string;
  /** When the key last authenticated a request, or null if never. */
  last_used_at: string | null;
  /** When the key was revoked, or null while it works. */
  revoked_at: string | null;
}

/** `POST /api/v1/keys`'s answer: the record and, this once, the secret. */
export interface CreatedKey extends KeyRecord {
  /** The full secret, shown only in this response: store it now. */
  key: string;
}

/** `GET /api/v1/keys`'s answer. */
export interface KeyList {
  /** The account's keys, revoked ones included. */
  data: KeyRecord[];
}
