import { CreatedKey, KeyList } from "@iccid/core";
import type { IccidClient, RequestOptions } from "../client.js";

/** One path segment: percent-encoded, and "." / ".." escaped too (encodeURIComponent leaves dots alone, and a
 * bare ".." segment would climb out of /keys/ in any URL normaliser along the way). */
function pathSegment(id: string): string {
  if (typeof id !== "string" || id.length === 0) throw new TypeError("a key id must be a non-empty string");
  const encoded = encodeURIComponent(id);
  return encoded === "." || encoded === ".." ? encoded.replaceAll(".", "%2E") : encoded;
}

/** API keys of the logged-in account (needs `client.session.login` first). */
export class KeysResource {
  constructor(private readonly client: IccidClient) {}

  /** Every key of the account, revoked ones included (`revoked_at` set), as `{ data: KeyRecord[] }`. */
  list(options?: RequestOptions): Promise<KeyList> {
    return this.client.call({ method: "GET", path: "/keys", auth: "session", schema: KeyList }, options);
  }

  /** Creates a key; `key` in the answer is the full secret, shown this once. Never retried: a retry could mint two keys. */
  create(params: { name?: string } = {}, options?: RequestOptions): Promise<CreatedKey> {
    return this.client.call(
      { method: "POST", path: "/keys", auth: "session", body: params, schema: CreatedKey, retry: false },
      options,
    );
  }

  /** Revokes a key; revoking it again is fine. An unknown id or another account's key is a NotFoundError. */
  revoke(id: string, options?: RequestOptions): Promise<void> {
    return this.client.call({ method: "DELETE", path: `/keys/${pathSegment(id)}`, auth: "session", schema: null }, options);
  }
}
