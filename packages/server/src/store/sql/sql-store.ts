import { EmailTaken } from "../../domain/refusals.js";
import { ChargesStalled } from "../errors.js";
import type { GrantCache } from "../grant-cache.js";
import { HEARTBEAT_SQL } from "../heartbeat.js";
import {
  accountFromRow,
  ACCOUNTS_WITH_SUBSCRIPTIONS_SQL,
  GRANT_BY_HASH_SQL,
  grantFromRow,
  keyFromRow,
  SESSION_BY_HASH_SQL,
  sessionFromRow,
  type AccountRow,
  type GrantRow,
  type KeyTableRow,
  type SessionJoinRow,
} from "../joins.js";
import type {
  Account,
  ApiKeyRow,
  AuditFilter,
  AuditRow,
  Charge,
  ChargeOutcome,
  CustomPrefix,
  UnknownPrefixCount,
  KeyGrant,
  NewAccount,
  Plan,
  RevokeOutcome,
  RollOutcome,
  SchemaVersions,
  SessionRow,
  Store,
  Subscription,
  UsageSpan,
  UsageSum,
} from "../store.js";
import { restoreStatements, TABLE_NAMES, TABLES, type DumpRow } from "../tables.js";
import { auditEventsQuery } from "./audit-sql.js";
import { SqlIdempotencyStore } from "./idempotency-sql.js";
import { INSERT_KEY, keyParams, rollKeyStatements } from "./key-sql.js";
import { MIGRATIONS } from "./schema.js";
import { ADD_UNKNOWN_PREFIX, UNKNOWN_PREFIXES_SINCE, upsertPrefix } from "./prefix-sql.js";
import { usageSumsQuery } from "./usage-sql.js";
import type { SqlDriver } from "./sql-driver.js";

/** Every session of an account ends: sign out everywhere, and a new password. */
const END_SESSIONS = "DELETE FROM sessions WHERE account_id = ?";

/**
 * The store, written once in the SQL both dialects accept (`INSERT … ON CONFLICT`, `RETURNING`, ids made
 * by the application, times as epoch milliseconds), over a driver per dialect that runs it. Charges are
 * the driver's (a group commit on either); key grants go through a cache that each dialect keeps current
 * its own way.
 */

export class SqlStore implements Store {
  readonly idempotency: SqlIdempotencyStore;
  #grantCache: GrantCache | undefined;

  constructor(protected readonly driver: SqlDriver) {
    this.idempotency = new SqlIdempotencyStore(driver);
  }

  /** Made at the first key check: on PostgreSQL it listens for changes, which operator commands never need. */
  get #grants(): GrantCache {
    return (this.#grantCache ??= this.driver.grantCache());
  }

  migrate(): Promise<SchemaVersions> {
    return this.driver.migrate(MIGRATIONS);
  }

  async close(): Promise<void> {
    await this.driver.close();
  }

  async ping(): Promise<void> {
    await this.driver.get("SELECT 1");
  }

  async checkWritable(at: number): Promise<void> {
    // A write elsewhere may go through while the charges wait on their rows: they are asked first.
    if (this.driver.chargesStalled) throw new ChargesStalled();
    return this.driver.probeWrite({ sql: HEARTBEAT_SQL, params: [at] });
  }

  async upsertPlan(plan: Plan): Promise<void> {
    await this.driver.run(
      `INSERT INTO plans (name, rate_limit, window_seconds, monthly_lookups) VALUES (?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET rate_limit = excluded.rate_limit,
         window_seconds = excluded.window_seconds, monthly_lookups = excluded.monthly_lookups`,
      [plan.name, plan.rate_limit, plan.window_seconds, plan.monthly_lookups],
    );
    this.#grantCache?.clear();
  }

  getPlan(name: string): Promise<Plan | undefined> {
    return this.driver.get<Plan>("SELECT * FROM plans WHERE name = ?", [name]);
  }

  listPlans(): Promise<Plan[]> {
    return this.driver.all<Plan>("SELECT * FROM plans ORDER BY name");
  }

  async createAccount({ account, subscription }: NewAccount): Promise<void> {
    try {
      await this.driver.atomically([
        {
          sql: "INSERT INTO accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
          params: [account.id, account.email, account.password_hash, account.created_at],
        },
        {
          sql: "INSERT INTO subscriptions (account_id, status, plan, period_anchor) VALUES (?, ?, ?, ?)",
          params: [subscription.account_id, subscription.status, subscription.plan, subscription.period_anchor],
        },
      ]);
    } catch (error) {
      // Ids are random: a unique violation on accounts is the email (taken, or another instance won a race).
      if (this.driver.isUniqueViolation(error, "accounts")) throw new EmailTaken(account.email);
      throw error;
    }
  }

  async countAccounts(): Promise<number> {
    return (await this.driver.get<{ n: number }>("SELECT count(*) AS n FROM accounts"))!.n;
  }

  findAccountByEmail(email: string): Promise<Account | undefined> {
    return this.driver.get<Account>("SELECT * FROM accounts WHERE email = ?", [email]);
  }

  async listAccounts(): Promise<Array<Account & { subscription: Subscription }>> {
    return (await this.driver.all<AccountRow>(ACCOUNTS_WITH_SUBSCRIPTIONS_SQL)).map(accountFromRow);
  }

  getSubscription(accountId: string): Promise<Subscription | undefined> {
    return this.driver.get<Subscription>("SELECT * FROM subscriptions WHERE account_id = ?", [accountId]);
  }

  async setSubscription(accountId: string, changes: Partial<Pick<Subscription, "status" | "plan">>): Promise<void> {
    const sql = "UPDATE subscriptions SET status = coalesce(?, status), plan = coalesce(?, plan) WHERE account_id = ?";
    await this.driver.run(sql, [changes.status ?? null, changes.plan ?? null, accountId]);
    this.#grantCache?.clear();
  }

  async setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
    await this.driver.atomically([
      { sql: "UPDATE accounts SET password_hash = ? WHERE id = ?", params: [passwordHash, accountId] },
      { sql: END_SESSIONS, params: [accountId] },
    ]);
  }

  async insertKey(key: ApiKeyRow): Promise<void> {
    await this.driver.run(INSERT_KEY, keyParams(key));
  }

  async findKeyGrant(hash: string): Promise<KeyGrant | undefined> {
    const grants = this.#grants;
    const cached = grants.get(hash);
    if (cached) return cached;
    const generation = grants.generation;
    const row = await this.driver.get<GrantRow>(GRANT_BY_HASH_SQL, [hash]);
    const grant = row && grantFromRow(row);
    if (grant) grants.set(hash, grant, generation);
    return grant;
  }

  async listKeys(accountId: string): Promise<ApiKeyRow[]> {
    const rows = await this.driver.all<KeyTableRow>("SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at DESC, id", [accountId]);
    return rows.map(keyFromRow);
  }

  async findKey(keyId: string): Promise<ApiKeyRow | undefined> {
    const row = await this.driver.get<KeyTableRow>("SELECT * FROM api_keys WHERE id = ?", [keyId]);
    return row && keyFromRow(row);
  }

  async rollKey(accountId: string, keyId: string, successor: ApiKeyRow, oldKeyExpiresAt: number, at: number): Promise<RollOutcome> {
    const [marked] = await this.driver.atomically(rollKeyStatements(accountId, keyId, successor, oldKeyExpiresAt, at));
    this.#grantCache?.forgetKey(keyId);
    if (marked!.changes === 1) return "rolled";
    const old = await this.driver.get<KeyTableRow>("SELECT * FROM api_keys WHERE id = ? AND account_id = ?", [keyId, accountId]);
    if (!old) return "not_found";
    if (old.revoked_at !== null) return "revoked";
    if (old.replaced_by !== null) return "rolled_already";
    return "expired";
  }

  async revokeKey(accountId: string, keyId: string, at: number): Promise<RevokeOutcome> {
    // Only a key not yet revoked changes: a second revocation, even within the same millisecond, is told apart.
    const sql = "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL";
    const changed = await this.driver.run(sql, [at, keyId, accountId]);
    this.#grantCache?.forgetKey(keyId);
    if (changed === 1) return "revoked";
    const row = await this.driver.get<{ id: string }>("SELECT id FROM api_keys WHERE id = ? AND account_id = ?", [keyId, accountId]);
    return row ? "already_revoked" : "not_found";
  }

  async touchKey(keyId: string, at: number): Promise<void> {
    await this.driver.run("UPDATE api_keys SET last_used_at = ? WHERE id = ?", [at, keyId]);
    this.#grantCache?.forgetKey(keyId);
  }

  async insertAuditEvent(e: AuditRow): Promise<void> {
    await this.driver.run(
      `INSERT INTO audit_events (id, account_id, at, action, actor_type, actor_id, ip, user_agent, target, attempts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [e.id, e.account_id, e.at, e.action, e.actor_type, e.actor_id, e.ip, e.user_agent, e.target, e.attempts],
    );
  }

  auditEvents(filter: AuditFilter): Promise<AuditRow[]> {
    const { sql, params } = auditEventsQuery(filter);
    return this.driver.all<AuditRow>(sql, params);
  }

  deleteAuditEventsBefore(at: number): Promise<number> {
    return this.driver.run("DELETE FROM audit_events WHERE at < ?", [at]);
  }

  async insertSession(s: SessionRow): Promise<void> {
    const sql = "INSERT INTO sessions (hash, account_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)";
    await this.driver.run(sql, [s.hash, s.account_id, s.created_at, s.last_seen_at, s.expires_at]);
  }

  async findSession(hash: string): Promise<{ session: SessionRow; account: Account } | undefined> {
    const row = await this.driver.get<SessionJoinRow>(SESSION_BY_HASH_SQL, [hash]);
    return row && sessionFromRow(row);
  }

  async touchSession(hash: string, at: number): Promise<void> {
    await this.driver.run("UPDATE sessions SET last_seen_at = ? WHERE hash = ?", [at, hash]);
  }

  async deleteSession(hash: string): Promise<void> {
    await this.driver.run("DELETE FROM sessions WHERE hash = ?", [hash]);
  }

  deleteSessions(accountId: string): Promise<number> {
    return this.driver.run(END_SESSIONS, [accountId]);
  }

  deleteExpiredSessions(now: number, idleMs: number): Promise<number> {
    return this.driver.run("DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?", [now, now - idleMs]);
  }

  async replaceCustomPrefixes(prefixes: CustomPrefix[]): Promise<void> {
    await this.driver.atomically([{ sql: "DELETE FROM custom_prefixes" }, ...prefixes.map(upsertPrefix)]);
  }

  async upsertCustomPrefixes(prefixes: CustomPrefix[]): Promise<void> {
    await this.driver.atomically(prefixes.map(upsertPrefix));
  }

  listCustomPrefixes(): Promise<CustomPrefix[]> {
    return this.driver.all<CustomPrefix>("SELECT prefix, name, country_iso2 FROM custom_prefixes ORDER BY prefix");
  }

  async removeCustomPrefixes(prefixes: readonly string[]): Promise<number> {
    const results = await this.driver.atomically(prefixes.map((prefix) => ({ sql: "DELETE FROM custom_prefixes WHERE prefix = ?", params: [prefix] })));
    return results.reduce((removed, r) => removed + r.changes, 0);
  }

  async customPrefixGeneration(): Promise<number> {
    return (await this.driver.get<{ generation: number }>("SELECT generation FROM custom_prefix_generation"))!.generation;
  }

  async addUnknownPrefixes(counts: readonly UnknownPrefixCount[]): Promise<void> {
    if (counts.length === 0) return;
    await this.driver.atomically(counts.map((c) => ({ sql: ADD_UNKNOWN_PREFIX, params: [c.day, c.prefix, c.count, c.first_seen, c.last_seen] })));
  }

  unknownPrefixes(sinceDay: number): Promise<Array<Omit<UnknownPrefixCount, "day">>> {
    return this.driver.all(UNKNOWN_PREFIXES_SINCE, [sinceDay]);
  }

  charge(c: Charge): Promise<ChargeOutcome> {
    return this.driver.charge(c);
  }

  async quotaUsed(accountId: string, periodStart: number): Promise<number> {
    const sql = "SELECT used FROM quota_counters WHERE account_id = ? AND period_start = ?";
    const row = await this.driver.get<{ used: number }>(sql, [accountId, periodStart]);
    return row?.used ?? 0;
  }

  usageSums(accountId: string, spans: readonly UsageSpan[]): Promise<UsageSum[]> {
    const { sql, params } = usageSumsQuery(this.driver.dialect, accountId, spans);
    return this.driver.all<UsageSum>(sql, params);
  }

  async *dump(): AsyncIterable<DumpRow> {
    for (const table of TABLE_NAMES) {
      for await (const row of this.driver.iterate<DumpRow["row"]>(`SELECT ${TABLES[table].join(", ")} FROM ${table}`)) yield { table, row };
    }
  }

  restore(rows: AsyncIterable<DumpRow>): Promise<number> {
    return this.driver.load(restoreStatements(rows));
  }
}
