import { storedScopes } from "../joins.js";
import type { ApiKeyRow } from "../store.js";
import type { Statement } from "./sql-driver.js";

// The api_keys writes: a key's INSERT, and rolling one key into another in one transaction.

const KEY_COLUMNS = ["id", "account_id", "name", "prefix", "last4", "hash", "created_at", "last_used_at", "revoked_at", "scopes", "expires_at", "replaced_by"];
export const INSERT_KEY = `INSERT INTO api_keys (${KEY_COLUMNS.join(", ")}) VALUES (${KEY_COLUMNS.map(() => "?").join(", ")})`;
// Typed placeholders for INSERT … SELECT, where PostgreSQL cannot take a parameter's type from its column.
const KEY_COLUMN_CASTS = ["TEXT", "TEXT", "TEXT", "TEXT", "TEXT", "TEXT", "BIGINT", "BIGINT", "BIGINT", "TEXT", "BIGINT", "TEXT"]
  .map((type) => `CAST(? AS ${type})`)
  .join(", ");

export function keyParams(k: ApiKeyRow): Array<string | number | null> {
  return [k.id, k.account_id, k.name, k.prefix, k.last4, k.hash, k.created_at, k.last_used_at, k.revoked_at, storedScopes(k.scopes), k.expires_at, k.replaced_by];
}

/**
 * Rolling `keyId` into `successor`, for one transaction. The update comes first: on PostgreSQL it locks
 * the old row, so a second roll at once finds replaced_by set and changes nothing; the successor goes in
 * only if this roll is the one that marked the old key. The old key stops at `oldKeyExpiresAt`, or at its
 * own expiry if that is sooner. The first statement's change count says whether the roll happened.
 */
export function rollKeyStatements(accountId: string, keyId: string, successor: ApiKeyRow, oldKeyExpiresAt: number, at: number): Statement[] {
  return [
    {
      sql: `UPDATE api_keys SET replaced_by = ?, expires_at = CASE WHEN expires_at IS NULL OR expires_at > ? THEN ? ELSE expires_at END
            WHERE id = ? AND account_id = ? AND revoked_at IS NULL AND replaced_by IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
      params: [successor.id, oldKeyExpiresAt, oldKeyExpiresAt, keyId, accountId, at],
    },
    {
      sql: `INSERT INTO api_keys (${KEY_COLUMNS.join(", ")}) SELECT ${KEY_COLUMN_CASTS}
            WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ? AND replaced_by = ?)`,
      params: [...keyParams(successor), keyId, successor.id],
    },
  ];
}
