import { CreatedKey as CreatedKeySchema, CreatedOrReplayed, KeyList as KeyListSchema } from "../response-schemas.js";
import type { CreatedKey, KeyList, KeyScope } from "@iccid/core/types";
import { KeyAlreadyCreatedError } from "../errors.js";
import type { IccidClient, RequestOptions } from "../client.js";

// An id becomes one percent-encoded path segment. "." and ".." cannot be made safe: WHATWG URL parsing
// turns them into path steps even when written %2E, so they are refused here.

function pathSegment(id: string): string {
  if (typeof id !== "string" || id.length === 0) throw new TypeError("a key id must be a non-empty string");
  if (id === "." || id === "..") throw new TypeError(`${JSON.stringify(id)} is not a key id`);
  return encodeURIComponent(id);
}

/** What `client.keys.create` takes. */
export interface CreateKeyParams {
  /** A name to tell the key by, 1 to 100 characters. */
  name?: string | undefined;
  /** What the key may do: `lookup` (single and batch lookups), `usage:read` (the usage report). Default: both. */
  scopes?: KeyScope[] | undefined;
  /** When the key stops working: in the future, at most 5 years ahead. A Date is sent as RFC 3339. Default: never. */
  expires_at?: string | Date | null | undefined;
}

/** What `client.keys.roll` takes. */
export interface RollKeyParams {
  /** How long the old key keeps working, 0 to 604800 seconds (7 days). Default 0: it stops at once. */
  grace_seconds?: number | undefined;
}

/** Drops undefined members, so that a caller's `{ name: undefined }` is no field at all on the wire. */
function defined(params: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}

/** API keys of the logged-in account (needs `client.session.login` first). */
export class KeysResource {
  constructor(private readonly client: IccidClient) {}

  /** Every key of the account, revoked ones included (`revoked_at` set), as `{ data: KeyRecord[] }`. */
  list(options?: RequestOptions): Promise<KeyList> {
    return this.client.call({ method: "GET", path: "/keys", auth: "session", schema: KeyListSchema }, options);
  }

  /**
   * Creates a key with `scopes` (default: every scope) that stops working at `expires_at` (default: never);
   * `key` in the result is the full secret, shown this once. Retried with the same Idempotency-Key, so a
   * retry never mints a second key. When the server had created it already (a retry after a lost response,
   * or your `idempotencyKey` used again within 24 hours) it answers the key's record without the secret,
   * which is never stored: that is a KeyAlreadyCreatedError, whose `record` names the key to roll.
   */
  async create(params: CreateKeyParams = {}, options?: RequestOptions): Promise<CreatedKey> {
    const { expires_at, ...rest } = params;
    const body = defined({ ...rest, expires_at: expires_at instanceof Date ? expires_at.toISOString() : expires_at });
    const created = await this.client.call({ method: "POST", path: "/keys", auth: "session", body, schema: CreatedOrReplayed, idempotent: true }, options);
    if (!("key" in created)) throw new KeyAlreadyCreatedError(created);
    return created;
  }

  /**
   * Rolls a key: answers a new key with the old one's name, scopes and expiry, its secret shown once. The
   * old key keeps working for `grace_seconds`, then is refused with 401 `expired_api_key`. A revoked,
   * expired or already rolled key is a ConflictError (409 `key_not_rollable`). Never retried.
   */
  roll(id: string, params: RollKeyParams = {}, options?: RequestOptions): Promise<CreatedKey> {
    return this.client.call(
      { method: "POST", path: `/keys/${pathSegment(id)}/roll`, auth: "session", body: defined(params), schema: CreatedKeySchema, retry: false },
      options,
    );
  }

  /** Revokes a key; revoking it again is fine. An unknown id or another account's key is a NotFoundError. */
  async revoke(id: string, options?: RequestOptions): Promise<void> {
    return this.client.call({ method: "DELETE", path: `/keys/${pathSegment(id)}`, auth: "session", schema: null }, options);
  }
}
