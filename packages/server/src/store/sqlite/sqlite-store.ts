import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { CustomPrefix } from "../../decode/decoder.js";
import type {
  Account,
  ApiKeyRow,
  Charge,
  ChargeOutcome,
  KeyGrant,
  NewAccount,
  Plan,
  RevokeOutcome,
  SessionRow,
  Store,
  Subscription,
  UsageRow,
} from "../store.js";
import { StoreUnavailable } from "../errors.js";
import { restoreSql, TABLE_NAMES, TABLES, type DumpRow } from "../tables.js";
import { ChargeBatch } from "../charge-batch.js";
import { GrantCache } from "./grant-cache.js";
import {
  accountFromRow,
  ACCOUNTS_WITH_SUBSCRIPTIONS_SQL,
  grantByHashSql,
  grantFromRow,
  sessionByHashSql,
  sessionFromRow,
  type AccountRow,
  type GrantRow,
  type SessionJoinRow,
} from "../joins.js";
import { MIGRATIONS } from "./migrations.js";

type Statement = Database.Statement<unknown[], unknown>;

/**
 * The embedded store: one SQLite file in WAL mode. better-sqlite3 is synchronous, so each method runs to
 * completion without interleaving and a `transaction()` is truly atomic; statements are prepared once.
 */
export class SqliteStore implements Store {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Statement>();
  readonly #charges: ChargeBatch;
  readonly #grants: GrantCache;

  constructor(readonly path: string) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = NORMAL"); // durable at each WAL checkpoint; a crash loses no committed tx in WAL
    this.#db.pragma("busy_timeout = 5000");
    this.#db.pragma("foreign_keys = ON");
    const commit = this.#db.transaction((charges: Charge[]) => charges.map((c) => this.#charge(c)));
    this.#charges = new ChargeBatch(
      (charges) => {
        this.#assertOpen();
        return commit(charges);
      },
      // Another process held the write lock past busy_timeout: a 503 to retry, not a 500.
      (error) => ((error as { code?: string }).code === "SQLITE_BUSY" ? new StoreUnavailable({ cause: error }) : error),
    );
    const dataVersion = this.#db.prepare("PRAGMA data_version").pluck();
    this.#grants = new GrantCache(() => {
      this.#assertOpen();
      return dataVersion.get() as number;
    });
  }

  /** A statement prepared on first use and kept for the life of the store. */
  #sql(sql: string): Statement {
    this.#assertOpen();
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** A closed database (shutting down) is unavailable, not broken: 503, not 500. */
  #assertOpen(): void {
    if (!this.#db.open) throw new StoreUnavailable();
  }

  async migrate(): Promise<void> {
    const run = this.#db.transaction(() => {
      const version = this.#db.pragma("user_version", { simple: true }) as number;
      for (let i = version; i < MIGRATIONS.length; i++) this.#db.exec(MIGRATIONS[i]!);
      if (version < MIGRATIONS.length) this.#db.pragma(`user_version = ${MIGRATIONS.length}`);
    });
    run.immediate();
  }

  async close(): Promise<void> {
    if (!this.#db.open) return;
    await this.#charges.drain();
    this.#db.close();
  }

  async ping(): Promise<void> {
    this.#sql("SELECT 1").get();
  }

  async upsertPlan(plan: Plan): Promise<void> {
    this.#grants.clear();
    this.#sql(
      `INSERT INTO plans (name, rate_limit, window_seconds, monthly_lookups) VALUES (?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET rate_limit = excluded.rate_limit,
         window_seconds = excluded.window_seconds, monthly_lookups = excluded.monthly_lookups`,
    ).run(plan.name, plan.rate_limit, plan.window_seconds, plan.monthly_lookups);
  }

  async getPlan(name: string): Promise<Plan | undefined> {
    return this.#sql("SELECT * FROM plans WHERE name = ?").get(name) as Plan | undefined;
  }

  async createAccount({ account, subscription }: NewAccount): Promise<void> {
    this.#db.transaction(() => {
      this.#sql("INSERT INTO accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)").run(
        account.id,
        account.email,
        account.password_hash,
        account.created_at,
      );
      this.#sql("INSERT INTO subscriptions (account_id, status, plan, period_anchor) VALUES (?, ?, ?, ?)").run(
        subscription.account_id,
        subscription.status,
        subscription.plan,
        subscription.period_anchor,
      );
    })();
  }

  async countAccounts(): Promise<number> {
    return (this.#sql("SELECT count(*) AS n FROM accounts").get() as { n: number }).n;
  }

  async getAccount(id: string): Promise<Account | undefined> {
    return this.#sql("SELECT * FROM accounts WHERE id = ?").get(id) as Account | undefined;
  }

  async findAccountByEmail(email: string): Promise<Account | undefined> {
    return this.#sql("SELECT * FROM accounts WHERE email = ?").get(email) as Account | undefined;
  }

  async listAccounts(): Promise<Array<Account & { subscription: Subscription }>> {
    return (this.#sql(ACCOUNTS_WITH_SUBSCRIPTIONS_SQL).all() as AccountRow[]).map(accountFromRow);
  }

  async getSubscription(accountId: string): Promise<Subscription | undefined> {
    return this.#sql("SELECT * FROM subscriptions WHERE account_id = ?").get(accountId) as Subscription | undefined;
  }

  async setSubscription(accountId: string, changes: Partial<Pick<Subscription, "status" | "plan">>): Promise<void> {
    this.#grants.clear();
    this.#sql(
      `UPDATE subscriptions SET status = coalesce(?, status), plan = coalesce(?, plan) WHERE account_id = ?`,
    ).run(changes.status ?? null, changes.plan ?? null, accountId);
  }

  async insertKey(key: ApiKeyRow): Promise<void> {
    this.#sql(
      `INSERT INTO api_keys (id, account_id, name, prefix, last4, hash, created_at, last_used_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(key.id, key.account_id, key.name, key.prefix, key.last4, key.hash, key.created_at, key.last_used_at, key.revoked_at);
  }

  async findKeyGrant(hash: string): Promise<KeyGrant | undefined> {
    const cached = this.#grants.get(hash);
    if (cached) return cached;
    const grant = this.#readGrant(hash);
    if (grant) this.#grants.set(hash, grant);
    return grant;
  }

  #readGrant(hash: string): KeyGrant | undefined {
    const row = this.#sql(grantByHashSql("?")).get(hash) as GrantRow | undefined;
    return row && grantFromRow(row);
  }

  async listKeys(accountId: string): Promise<ApiKeyRow[]> {
    return this.#sql("SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at DESC, id").all(
      accountId,
    ) as ApiKeyRow[];
  }

  async revokeKey(accountId: string, keyId: string, at: number): Promise<RevokeOutcome> {
    this.#grants.forgetKey(keyId);
    const row = this.#sql(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND account_id = ?
       RETURNING revoked_at`,
    ).get(at, keyId, accountId) as { revoked_at: number } | undefined;
    if (!row) return "not_found";
    return row.revoked_at === at ? "revoked" : "already_revoked";
  }

  async touchKey(keyId: string, at: number): Promise<void> {
    this.#grants.forgetKey(keyId);
    this.#sql("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(at, keyId);
  }

  async insertSession(session: SessionRow): Promise<void> {
    this.#sql(
      "INSERT INTO sessions (hash, account_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    ).run(session.hash, session.account_id, session.created_at, session.last_seen_at, session.expires_at);
  }

  async findSession(hash: string): Promise<{ session: SessionRow; account: Account } | undefined> {
    const row = this.#sql(sessionByHashSql("?")).get(hash) as SessionJoinRow | undefined;
    return row && sessionFromRow(row);
  }

  async touchSession(hash: string, at: number): Promise<void> {
    this.#sql("UPDATE sessions SET last_seen_at = ? WHERE hash = ?").run(at, hash);
  }

  async deleteSession(hash: string): Promise<void> {
    this.#sql("DELETE FROM sessions WHERE hash = ?").run(hash);
  }

  async deleteExpiredSessions(now: number, idleMs: number): Promise<number> {
    return this.#sql("DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?").run(now, now - idleMs).changes;
  }

  async replaceCustomPrefixes(prefixes: CustomPrefix[]): Promise<void> {
    this.#db.transaction(() => {
      this.#sql("DELETE FROM custom_prefixes").run();
      this.#insertPrefixes(prefixes);
    })();
  }

  async upsertCustomPrefixes(prefixes: CustomPrefix[]): Promise<void> {
    this.#db.transaction(() => this.#insertPrefixes(prefixes))();
  }

  #insertPrefixes(prefixes: CustomPrefix[]): void {
    const insert = this.#sql(
      `INSERT INTO custom_prefixes (prefix, name, country_iso2) VALUES (?, ?, ?)
       ON CONFLICT (prefix) DO UPDATE SET name = excluded.name, country_iso2 = excluded.country_iso2`,
    );
    for (const p of prefixes) insert.run(p.prefix, p.name, p.country_iso2);
  }

  async listCustomPrefixes(): Promise<CustomPrefix[]> {
    return this.#sql("SELECT prefix, name, country_iso2 FROM custom_prefixes ORDER BY prefix").all() as CustomPrefix[];
  }

  charge(c: Charge): Promise<ChargeOutcome> {
    return this.#charges.add(c);
  }

  #charge(c: Charge): ChargeOutcome {
    // The conditional UPSERT is the quota check: it only moves the counter when the lookups fit.
    const counted = this.#sql(
      `INSERT INTO quota_counters (account_id, period_start, used) SELECT ?, ?, ? WHERE ? <= ?
       ON CONFLICT (account_id, period_start) DO UPDATE SET used = used + excluded.used
       WHERE quota_counters.used + excluded.used <= ?
       RETURNING used`,
    ).get(c.account_id, c.period_start, c.lookups, c.lookups, c.quota_limit, c.quota_limit) as { used: number } | undefined;
    if (!counted) return { charged: false, used: this.#quotaUsed(c.account_id, c.period_start) };
    this.#sql(
      `INSERT INTO usage_counters (account_id, bucket_start, key_id, requests, lookups) VALUES (?, ?, ?, 1, ?)
       ON CONFLICT (account_id, bucket_start, key_id) DO UPDATE SET
         requests = requests + 1, lookups = lookups + excluded.lookups`,
    ).run(c.account_id, c.bucket_start, c.key_id, c.lookups);
    return { charged: true, used: counted.used };
  }

  #quotaUsed(accountId: string, periodStart: number): number {
    const row = this.#sql("SELECT used FROM quota_counters WHERE account_id = ? AND period_start = ?").get(
      accountId,
      periodStart,
    ) as { used: number } | undefined;
    return row?.used ?? 0;
  }

  async quotaUsed(accountId: string, periodStart: number): Promise<number> {
    return this.#quotaUsed(accountId, periodStart);
  }

  async usageRows(accountId: string, from: number, to: number): Promise<UsageRow[]> {
    return this.#sql(
      `SELECT bucket_start, key_id, requests, lookups FROM usage_counters
       WHERE account_id = ? AND bucket_start >= ? AND bucket_start < ? ORDER BY bucket_start`,
    ).all(accountId, from, to) as UsageRow[];
  }

  async *dump(): AsyncIterable<DumpRow> {
    for (const table of TABLE_NAMES) {
      const columns = TABLES[table].join(", ");
      for (const row of this.#db.prepare(`SELECT ${columns} FROM ${table}`).iterate()) {
        yield { table, row: row as DumpRow["row"] };
      }
    }
  }

  async restore(rows: AsyncIterable<DumpRow>): Promise<number> {
    // better-sqlite3 transactions cannot span awaits, so this one is opened by hand; the import command
    // is the only user of the connection while it runs.
    this.#db.exec("BEGIN IMMEDIATE");
    let count = 0;
    try {
      for await (const { table, row } of rows) {
        this.#sql(restoreSql(table, () => "?")).run(...TABLES[table].map((c) => row[c] ?? null));
        count++;
      }
      this.#db.exec("COMMIT");
      return count;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }
}
