import type Database from "better-sqlite3";
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
import { EmailTaken, SchemaTooNew, StoreUnavailable } from "../errors.js";
import { whenNotBusy } from "./busy.js";
import { dumpRows, restoreRows } from "./dump-restore.js";
import { openDatabase } from "./open-database.js";
import type { DumpRow } from "../tables.js";
import { ChargeBatch } from "../charge-batch.js";
import { heartbeatSql } from "../heartbeat.js";
import { GrantCache } from "../grant-cache.js";
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

/** How long a request waits for another connection's write lock before it is answered 503. */
const LOCK_WAIT_MS = 5_000;
/** The readiness probe waits less: it answers whether a write can happen now. */
const PROBE_WAIT_MS = 1_000;

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
    this.#db = openDatabase(path);
    const commit = this.#db.transaction((charges: Charge[]) => charges.map((c) => this.#charge(c)));
    this.#charges = new ChargeBatch((charges) => this.#run(() => commit.immediate(charges)));
    // Another process's commits (an operator command changing a subscription or a plan) move
    // data_version. Reading it was the largest single cost of a lookup, so it is read at most every 100 ms.
    const dataVersion = this.#db.prepare("PRAGMA data_version").pluck();
    let seenVersion = dataVersion.get() as number;
    this.#grants = new GrantCache({
      changedElsewhere: () => {
        this.#assertOpen();
        const version = dataVersion.get() as number;
        const moved = version !== seenVersion;
        seenVersion = version;
        return moved;
      },
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

  /** Every statement runs through here: lock waits off the event loop, file faults as StoreUnavailable. */
  #run<T>(work: () => T, timeoutMs = LOCK_WAIT_MS): Promise<T> {
    return whenNotBusy(work, timeoutMs);
  }

  async migrate(): Promise<void> {
    const run = this.#db.transaction(() => {
      const version = this.#db.pragma("user_version", { simple: true }) as number;
      if (version > MIGRATIONS.length) throw new SchemaTooNew(version, MIGRATIONS.length);
      for (let i = version; i < MIGRATIONS.length; i++) this.#db.exec(MIGRATIONS[i]!);
      if (version < MIGRATIONS.length) this.#db.pragma(`user_version = ${MIGRATIONS.length}`);
    });
    await this.#run(() => run.immediate());
  }

  async close(): Promise<void> {
    if (!this.#db.open) return;
    await this.#charges.drain();
    this.#db.close();
  }

  ping(): Promise<void> {
    return this.#run(() => void this.#sql("SELECT 1").get());
  }

  checkWritable(at: number): Promise<void> {
    return this.#run(() => void this.#sql(heartbeatSql("?")).run(at), PROBE_WAIT_MS);
  }

  upsertPlan(plan: Plan): Promise<void> {
    return this.#run(() => {
      this.#sql(
        `INSERT INTO plans (name, rate_limit, window_seconds, monthly_lookups) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET rate_limit = excluded.rate_limit,
           window_seconds = excluded.window_seconds, monthly_lookups = excluded.monthly_lookups`,
      ).run(plan.name, plan.rate_limit, plan.window_seconds, plan.monthly_lookups);
      this.#grants.clear();
    });
  }

  getPlan(name: string): Promise<Plan | undefined> {
    return this.#run(() => this.#sql("SELECT * FROM plans WHERE name = ?").get(name) as Plan | undefined);
  }

  listPlans(): Promise<Plan[]> {
    return this.#run(() => this.#sql("SELECT * FROM plans ORDER BY name").all() as Plan[]);
  }

  createAccount({ account, subscription }: NewAccount): Promise<void> {
    const create = this.#db.transaction(() => {
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
    });
    return this.#run(() => {
      try {
        create.immediate();
      } catch (error) {
        if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" && /accounts\.email/.test(String(error))) {
          throw new EmailTaken(account.email);
        }
        throw error;
      }
    });
  }

  countAccounts(): Promise<number> {
    return this.#run(() => (this.#sql("SELECT count(*) AS n FROM accounts").get() as { n: number }).n);
  }

  findAccountByEmail(email: string): Promise<Account | undefined> {
    return this.#run(() => this.#sql("SELECT * FROM accounts WHERE email = ?").get(email) as Account | undefined);
  }

  listAccounts(): Promise<Array<Account & { subscription: Subscription }>> {
    return this.#run(() => (this.#sql(ACCOUNTS_WITH_SUBSCRIPTIONS_SQL).all() as AccountRow[]).map(accountFromRow));
  }

  getSubscription(accountId: string): Promise<Subscription | undefined> {
    return this.#run(() => this.#sql("SELECT * FROM subscriptions WHERE account_id = ?").get(accountId) as Subscription | undefined);
  }

  setSubscription(accountId: string, changes: Partial<Pick<Subscription, "status" | "plan">>): Promise<void> {
    return this.#run(() => {
      this.#sql(`UPDATE subscriptions SET status = coalesce(?, status), plan = coalesce(?, plan) WHERE account_id = ?`).run(
        changes.status ?? null,
        changes.plan ?? null,
        accountId,
      );
      this.#grants.clear();
    });
  }

  setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
    const reset = this.#db.transaction(() => {
      this.#sql("UPDATE accounts SET password_hash = ? WHERE id = ?").run(passwordHash, accountId);
      this.#sql("DELETE FROM sessions WHERE account_id = ?").run(accountId);
    });
    return this.#run(() => reset.immediate());
  }

  insertKey(key: ApiKeyRow): Promise<void> {
    return this.#run(() => {
      this.#sql(
        `INSERT INTO api_keys (id, account_id, name, prefix, last4, hash, created_at, last_used_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(key.id, key.account_id, key.name, key.prefix, key.last4, key.hash, key.created_at, key.last_used_at, key.revoked_at);
    });
  }

  async findKeyGrant(hash: string): Promise<KeyGrant | undefined> {
    const cached = this.#grants.get(hash);
    if (cached) return cached;
    const generation = this.#grants.generation;
    const grant = await this.#run(() => this.#readGrant(hash));
    if (grant) this.#grants.set(hash, grant, generation);
    return grant;
  }

  #readGrant(hash: string): KeyGrant | undefined {
    const row = this.#sql(grantByHashSql("?")).get(hash) as GrantRow | undefined;
    return row && grantFromRow(row);
  }

  listKeys(accountId: string): Promise<ApiKeyRow[]> {
    return this.#run(() => this.#sql("SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at DESC, id").all(accountId) as ApiKeyRow[]);
  }

  revokeKey(accountId: string, keyId: string, at: number): Promise<RevokeOutcome> {
    return this.#run(() => {
      const row = this.#sql(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND account_id = ?
         RETURNING revoked_at`,
      ).get(at, keyId, accountId) as { revoked_at: number } | undefined;
      this.#grants.forgetKey(keyId);
      if (!row) return "not_found";
      return row.revoked_at === at ? "revoked" : "already_revoked";
    });
  }

  touchKey(keyId: string, at: number): Promise<void> {
    return this.#run(() => {
      this.#sql("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(at, keyId);
      this.#grants.forgetKey(keyId);
    });
  }

  insertSession(session: SessionRow): Promise<void> {
    return this.#run(() => {
      this.#sql("INSERT INTO sessions (hash, account_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)").run(
        session.hash,
        session.account_id,
        session.created_at,
        session.last_seen_at,
        session.expires_at,
      );
    });
  }

  findSession(hash: string): Promise<{ session: SessionRow; account: Account } | undefined> {
    return this.#run(() => {
      const row = this.#sql(sessionByHashSql("?")).get(hash) as SessionJoinRow | undefined;
      return row && sessionFromRow(row);
    });
  }

  touchSession(hash: string, at: number): Promise<void> {
    return this.#run(() => void this.#sql("UPDATE sessions SET last_seen_at = ? WHERE hash = ?").run(at, hash));
  }

  deleteSession(hash: string): Promise<void> {
    return this.#run(() => void this.#sql("DELETE FROM sessions WHERE hash = ?").run(hash));
  }

  deleteExpiredSessions(now: number, idleMs: number): Promise<number> {
    return this.#run(() => this.#sql("DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?").run(now, now - idleMs).changes);
  }

  replaceCustomPrefixes(prefixes: CustomPrefix[]): Promise<void> {
    const replace = this.#db.transaction(() => {
      this.#sql("DELETE FROM custom_prefixes").run();
      this.#insertPrefixes(prefixes);
    });
    return this.#run(() => replace.immediate());
  }

  upsertCustomPrefixes(prefixes: CustomPrefix[]): Promise<void> {
    const upsert = this.#db.transaction(() => this.#insertPrefixes(prefixes));
    return this.#run(() => upsert.immediate());
  }

  #insertPrefixes(prefixes: CustomPrefix[]): void {
    const insert = this.#sql(
      `INSERT INTO custom_prefixes (prefix, name, country_iso2) VALUES (?, ?, ?)
       ON CONFLICT (prefix) DO UPDATE SET name = excluded.name, country_iso2 = excluded.country_iso2`,
    );
    for (const p of prefixes) insert.run(p.prefix, p.name, p.country_iso2);
  }

  listCustomPrefixes(): Promise<CustomPrefix[]> {
    return this.#run(() => this.#sql("SELECT prefix, name, country_iso2 FROM custom_prefixes ORDER BY prefix").all() as CustomPrefix[]);
  }

  async removeCustomPrefixes(prefixes: readonly string[]): Promise<number> {
    const remove = this.#sql("DELETE FROM custom_prefixes WHERE prefix = ?");
    return this.#db.transaction(() => prefixes.reduce((removed, prefix) => removed + remove.run(prefix).changes, 0))();
  }

  async customPrefixGeneration(): Promise<number> {
    return (this.#sql("SELECT generation FROM custom_prefix_generation").get() as { generation: number }).generation;
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

  quotaUsed(accountId: string, periodStart: number): Promise<number> {
    return this.#run(() => this.#quotaUsed(accountId, periodStart));
  }

  usageRows(accountId: string, from: number, to: number): Promise<UsageRow[]> {
    return this.#run(
      () =>
        this.#sql(
          `SELECT bucket_start, key_id, requests, lookups FROM usage_counters
           WHERE account_id = ? AND bucket_start >= ? AND bucket_start < ? ORDER BY bucket_start`,
        ).all(accountId, from, to) as UsageRow[],
    );
  }

  dump(): AsyncIterable<DumpRow> {
    return dumpRows(this.#db);
  }

  restore(rows: AsyncIterable<DumpRow>): Promise<number> {
    return restoreRows(this.#db, rows);
  }
}
