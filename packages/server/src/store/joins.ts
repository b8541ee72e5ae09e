import type { KeyScope } from "@iccid/core";
import type { Account, ApiKeyRow, KeyGrant, Plan, SessionRow, Subscription } from "./store.js";

// The joined reads of the store, and how their flat rows become the store's types.

/** The key, its account, subscription and plan in one read: everything the Bearer pipeline needs. */
export const GRANT_BY_HASH_SQL =
  `SELECT k.id, k.account_id, k.name, k.prefix, k.last4, k.hash, k.created_at, k.last_used_at, k.revoked_at,
          k.scopes, k.expires_at, k.replaced_by,
          a.email, a.password_hash, a.created_at AS account_created_at,
          s.status, s.plan, s.period_anchor,
          pl.rate_limit, pl.window_seconds, pl.monthly_lookups
   FROM api_keys k
   JOIN accounts a ON a.id = k.account_id
   JOIN subscriptions s ON s.account_id = k.account_id
   JOIN plans pl ON pl.name = s.plan
   WHERE k.hash = ?`;

/** An api_keys row as read: scopes space-separated. */
export type KeyTableRow = Omit<ApiKeyRow, "scopes"> & { scopes: string };

export function keyFromRow(row: KeyTableRow): ApiKeyRow {
  return { ...row, scopes: row.scopes.split(" ") as KeyScope[] };
}

/** How a key's scopes are stored. */
export function storedScopes(scopes: readonly KeyScope[]): string {
  return scopes.join(" ");
}

export type GrantRow = KeyTableRow &
  Pick<Account, "email" | "password_hash"> &
  Omit<Subscription, "account_id"> &
  Omit<Plan, "name"> & { account_created_at: number };

export function grantFromRow(row: GrantRow): KeyGrant {
  const { email, password_hash, account_created_at, status, plan, period_anchor, rate_limit, window_seconds,
    monthly_lookups, ...key } = row;
  return {
    key: keyFromRow(key),
    account: { id: key.account_id, email, password_hash, created_at: account_created_at },
    subscription: { account_id: key.account_id, status, plan, period_anchor },
    plan: { name: plan, rate_limit, window_seconds, monthly_lookups },
  };
}

export const ACCOUNTS_WITH_SUBSCRIPTIONS_SQL = `SELECT a.*, s.status, s.plan, s.period_anchor FROM accounts a
   JOIN subscriptions s ON s.account_id = a.id ORDER BY a.created_at, a.id`;

export type AccountRow = Account & Omit<Subscription, "account_id">;

export function accountFromRow({ status, plan, period_anchor, ...account }: AccountRow): Account & { subscription: Subscription } {
  return { ...account, subscription: { account_id: account.id, status, plan, period_anchor } };
}

export const SESSION_BY_HASH_SQL =
  `SELECT s.*, a.email, a.password_hash, a.created_at AS account_created_at
   FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.hash = ?`;

export type SessionJoinRow = SessionRow & Pick<Account, "email" | "password_hash"> & { account_created_at: number };

export function sessionFromRow(row: SessionJoinRow): { session: SessionRow; account: Account } {
  const { email, password_hash, account_created_at, ...session } = row;
  return { session, account: { id: session.account_id, email, password_hash, created_at: account_created_at } };
}
