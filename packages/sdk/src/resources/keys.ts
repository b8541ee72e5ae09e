import { CreatedKey as CreatedKeySchema, KeyList as KeyListSchema } from "@iccid/core";
import type { CreatedKey, KeyList } from "@iccid/core/types";
import type { IccidClient, RequestOptions } from "../client.js";

// An id becomes one percent-encoded path segment. "." and ".." cannot be made safe: WHATWG URL parsing
// turns them into path steps even when written %2E, so they are refused here.

function pathSegment(id: string): string {
  if (typeof id !== "string" || id.length === 0) throw new TypeError("a key id must be a non-empty string");
  if (id === "." || id === "..") throw new TypeError(`${JSON.stringify(id)} is not a key id`);
  return encodeURIComponent(id);
}

/** API keys of the logged-in account (needs `client.session.login` first). */
export class KeysResource {
  constructor(private readonly client: IccidClient) {}

  /** Every key of the account, revoked ones included (`revoked_at` set), as `{ data: KeyRecord[] }`. */
  list(options?: RequestOptions): Promise<KeyList> {
    return this.client.call({ method: "GET", path: "/keys", auth: "session", schema: KeyListSchema }, options);
  }

  /** Creates a key; `key` in the answer is the full secret, shown this once. Never retried: a retry could mint two keys. */
  create(params: { name?: string } = {}, options?: RequestOptions): Promise<CreatedKey> {
    return this.client.call(
      { method: "POST", path: "/keys", auth: "session", body: params, schema: CreatedKeySchema, retry: false },
      options,
    );
  }

  /** Revokes a key; revoking it again is fine. An unknown id or another account's key is a NotFoundError. */
  async revoke(id: string, options?: RequestOptions): Promise<void> {
    return this.client.call({ method: "DELETE", path: `/keys/${pathSegment(id)}`, auth: "session", schema: null }, options);
  }
}
