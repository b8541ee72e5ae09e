import pg from "pg";
import type { CustomPrefix } from "../../decode/decoder.js";
import { ChargeBatch } from "../charge-batch.js";
import { GrantCache } from "../grant-cache.js";
import { EmailTaken, SchemaTooNew } from "../errors.js";
import { heartbeatSql } from "../heartbeat.js";
import { storeError } from "./pg-errors.js";
import { GrantNotices } from "./grant-notices.js";
import { inTransaction, type Queryable } from "./transaction.js";
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
import { restoreSql, TABLE_NAMES, TABLES, type DumpRow } from "../tables.js";
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

// Times and counters are BIGINT; every value this store keeps fits a JS number exactly, so read them as
// numbers rather than pg's default strings.
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as "text"),
};

const MIGRATION_LOCK = 0x1cc1d; // any constant: serialises migrations across instances
/** The longest a cached key grant is used: the bound on seeing another instance's change. */
export const GRANT_MAX_AGE_MS = 1_000;


/** The shared store for several instances: PostgreSQL through a connection pool. */
export class PgStore implements Store {
  readonly #pool: pg.Pool;
  readonly #charges = new ChargeBatch((charges) => this.#chargeAll(charges));
  // Grants are cached as on SQLite; other instances' changes arrive as notices (migration 4). A notice that
  // is lost without the connection noticing is bounded by the grants' age: documented as at most 1 s.
  readonly #grants = new GrantCache({ maxAgeMs: GRANT_MAX_AGE_MS });
  readonly #notices: GrantNotices;
  #listening = false;

  constructor(connectionString: string, options: { schema?: string; max?: number } = {}) {
    const connection = {
      connectionString,
      types,
      connectionTimeoutMillis: 5_000,
      // No store call waits forever on a connection that died without a word: past this it is lost (503).
      query_timeout: 15_000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    };
    this.#pool = new pg.Pool({ ...connection, max: options.max ?? 10 });
    this.#pool.on("error", () => {}); // an idle client's dropped connection is replaced on next use
    this.#grants.enabled = false;
    this.#notices = new GrantNotices(
      () => new pg.Client(connection),
      () => this.#grants.clear(),
      (listening) => (this.#grants.enabled = listening),
    );
  }

  async #query<R>(sql: string, params: unknown[] = [], on: Queryable = this.#pool): Promise<R[]> {
    try {
      return (await on.query(sql, params)).rows as R[];
    } catch (error) {
      throw storeError(error);
    }
  }

  async #one<R>(sql: string, params: unknown[] = [], on?: Queryable): Promise<R | undefined> {
    return (await this.#query<R>(sql, params, on))[0];
  }

  #transaction<T>(work: (client: Queryable) => Promise<T>, options?: { resolveLostCommit?: boolean }): Promise<T> {
    return inTransaction(this.#pool, work, options);
  }

  async migrate(): Promise<void> {
    await this.#transaction(async (tx) => {
      await this.#query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK], tx);
      await this.#query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", [], tx);
      const row = await this.#one<{ version: number }>("SELECT version FROM schema_version", [], tx);
      const version = row?.version ?? 0;
      if (version > MIGRATIONS.length) throw new SchemaTooNew(version, MIGRATIONS.length);
      for (let i = version; i < MIGRATIONS.length; i++) await this.#query(MIGRATIONS[i]!, [], tx);
      if (!row) await this.#query("INSERT INTO schema_version (version) VALUES ($1)", [MIGRATIONS.length], tx);
      else if (version < MIGRATIONS.length) await this.#query("UPDATE schema_version SET version = $1", [MIGRATIONS.length], tx);
    });
  }

  async close(): Promise<void> {
    await this.#charges.drain();
    await this.#notices.close();
    await this.#pool.end();
  }

  async ping(): Promise<void> {
    await this.#query("SELECT 1");
  }

  async checkWritable(at: number): Promise<void> {
    await this.#query(heartbeatSql("$1"), [at]);
  }

  async upsertPlan(plan: Plan): Promise<void> {
    await this.#query(
      `INSERT INTO plans (name, rate_limit, window_seconds, monthly_lookups) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO UPDATE SET rate_limit = excluded.rate_limit,
         window_seconds = excluded.window_seconds, monthly_lookups = excluded.monthly_lookups`,
      [plan.name, plan.rate_limit, plan.window_seconds, plan.monthly_lookups],
    );
    this.#grants.clear();
  }

  async getPlan(name: string): Promise<Plan | undefined> {
    return this.#one<Plan>("SELECT * FROM plans WHERE name = $1", [name]);
  }

  async listPlans(): Promise<Plan[]> {
    return this.#query<Plan>("SELECT * FROM plans ORDER BY name");
  }

  async createAccount({ account, subscription }: NewAccount): Promise<void> {
    await this.#transaction(async (tx) => {
      // ON CONFLICT rather than catching the unique violation: an error would abort the transaction.
      const inserted = await this.#query(
        "INSERT INTO accounts (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id",
        [account.id, account.email, account.password_hash, account.created_at],
        tx,
      );
      if (inserted.length === 0) throw new EmailTaken(account.email);
      await this.#query("INSERT INTO subscriptions (account_id, status, plan, period_anchor) VALUES ($1, $2, $3, $4)",
        [subscription.account_id, subscription.status, subscription.plan, subscription.period_anchor], tx);
    });
  }

  async countAccounts(): Promise<number> {
    return (await this.#one<{ n: number }>("SELECT count(*)::int AS n FROM accounts"))!.n;
  }

  async findAccountByEmail(email: string): Promise<Account | undefined> {
    return this.#one<Account>("SELECT * FROM accounts WHERE email = $1", [email]);
  }

  async listAccounts(): Promise<Array<Account & { subscription: Subscription }>> {
    return (await this.#query<AccountRow>(ACCOUNTS_WITH_SUBSCRIPTIONS_SQL)).map(accountFromRow);
  }

  async getSubscription(accountId: string): Promise<Subscription | undefined> {
    return this.#one<Subscription>("SELECT * FROM subscriptions WHERE account_id = $1", [accountId]);
  }

  async setSubscription(accountId: string, changes: Partial<Pick<Subscription, "status" | "plan">>): Promise<void> {
    await this.#query("UPDATE subscriptions SET status = coalesce($1, status), plan = coalesce($2, plan) WHERE account_id = $3",
      [changes.status ?? null, changes.plan ?? null, accountId]);
    this.#grants.clear();
  }

  async setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
    await this.#transaction(async (tx) => {
      await this.#query("UPDATE accounts SET password_hash = $1 WHERE id = $2", [passwordHash, accountId], tx);
      await this.#query("DELETE FROM sessions WHERE account_id = $1", [accountId], tx);
    });
  }

  async insertKey(key: ApiKeyRow): Promise<void> {
    await this.#query(
      `INSERT INTO api_keys (id, account_id, name, prefix, last4, hash, created_at, last_used_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [key.id, key.account_id, key.name, key.prefix, key.last4, key.hash, key.created_at, key.last_used_at, key.revoked_at],
    );
  }

  async findKeyGrant(hash: string): Promise<KeyGrant | undefined> {
    // Listening starts with the first key check: operator commands, which never check keys, open no
    // connection for it.
    if (!this.#listening) {
      this.#listening = true;
      this.#notices.start();
    }
    const cached = this.#grants.get(hash);
    if (cached) return cached;
    const generation = this.#grants.generation;
    const row = await this.#one<GrantRow>(grantByHashSql("$1"), [hash]);
    const grant = row && grantFromRow(row);
    if (grant) this.#grants.set(hash, grant, generation);
    return grant;
  }

  async listKeys(accountId: string): Promise<ApiKeyRow[]> {
    return this.#query<ApiKeyRow>("SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id", [accountId]);
  }

  async revokeKey(accountId: string, keyId: string, at: number): Promise<RevokeOutcome> {
    const row = await this.#one<{ revoked_at: number }>(
      "UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2 AND account_id = $3 RETURNING revoked_at",
      [at, keyId, accountId],
    );
    this.#grants.forgetKey(keyId);
    if (!row) return "not_found";
    return row.revoked_at === at ? "revoked" : "already_revoked";
  }

  async touchKey(keyId: string, at: number): Promise<void> {
    await this.#query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [at, keyId]);
    this.#grants.forgetKey(keyId);
  }

  async insertSession(s: SessionRow): Promise<void> {
    await this.#query("INSERT INTO sessions (hash, account_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
      [s.hash, s.account_id, s.created_at, s.last_seen_at, s.expires_at]);
  }

  async findSession(hash: string): Promise<{ session: SessionRow; account: Account } | undefined> {
    const row = await this.#one<SessionJoinRow>(sessionByHashSql("$1"), [hash]);
    return row && sessionFromRow(row);
  }

  async touchSession(hash: string, at: number): Promise<void> {
    await this.#query("UPDATE sessions SET last_seen_at = $1 WHERE hash = $2", [at, hash]);
  }

  async deleteSession(hash: string): Promise<void> {
    await this.#query("DELETE FROM sessions WHERE hash = $1", [hash]);
  }

  async deleteExpiredSessions(now: number, idleMs: number): Promise<number> {
    const rows = await this.#query("DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2 RETURNING hash", [now, now - idleMs]);
    return rows.length;
  }

  async replaceCustomPrefixes(prefixes: CustomPrefix[]): Promise<void> {
    await this.#transaction(async (tx) => {
      await this.#query("DELETE FROM custom_prefixes", [], tx);
      await this.#insertPrefixes(prefixes, tx);
    });
  }

  async upsertCustomPrefixes(prefixes: CustomPrefix[]): Promise<void> {
    await this.#transaction((tx) => this.#insertPrefixes(prefixes, tx));
  }

  async #insertPrefixes(prefixes: CustomPrefix[], tx: Queryable): Promise<void> {
    for (const p of prefixes) {
      await this.#query(
        `INSERT INTO custom_prefixes (prefix, name, country_iso2) VALUES ($1, $2, $3)
         ON CONFLICT (prefix) DO UPDATE SET name = excluded.name, country_iso2 = excluded.country_iso2`,
        [p.prefix, p.name, p.country_iso2],
        tx,
      );
    }
  }

  async listCustomPrefixes(): Promise<CustomPrefix[]> {
    return this.#query<CustomPrefix>("SELECT prefix, name, country_iso2 FROM custom_prefixes ORDER BY prefix");
  }

  async removeCustomPrefixes(prefixes: readonly string[]): Promise<number> {
    const removed = await this.#query("DELETE FROM custom_prefixes WHERE prefix = ANY($1) RETURNING prefix", [[...prefixes]]);
    return removed.length;
  }

  async customPrefixGeneration(): Promise<number> {
    const [row] = await this.#query<{ generation: number }>("SELECT generation FROM custom_prefix_generation");
    return row!.generation;
  }

  charge(c: Charge): Promise<ChargeOutcome> {
    return this.#charges.add(c);
  }

  async #chargeAll(charges: Charge[]): Promise<ChargeOutcome[]> {
    // Lock rows in one global order (by account), so two instances committing batches that touch the
    // same accounts wait for each other instead of deadlocking; the sort is stable, so one account's
    // charges keep their arrival order.
    const order = charges.map((_, i) => i).sort((a, b) => (charges[a]!.account_id < charges[b]!.account_id ? -1 : charges[a]!.account_id > charges[b]!.account_id ? 1 : 0));
    return this.#transaction(async (tx) => {
      const outcomes: ChargeOutcome[] = new Array(charges.length);
      for (const i of order) outcomes[i] = await this.#charge(charges[i]!, tx);
      return outcomes;
    }, { resolveLostCommit: true });
  }

  async #charge(c: Charge, tx: Queryable): Promise<ChargeOutcome> {
    // One round trip: the conditional UPSERT is the quota check (ON CONFLICT DO UPDATE locks the counter row
    // and re-checks the WHERE on its latest version, so charges from any instance serialise on it), and the
    // usage bucket moves only when it let the charge through.
    const row = await this.#one<{ charged: number | null; current: number | null }>(
      `WITH quota AS (
         INSERT INTO quota_counters (account_id, period_start, used)
         SELECT $1::text, $2::bigint, $3::bigint WHERE $3::bigint <= $4::bigint
         ON CONFLICT (account_id, period_start) DO UPDATE SET used = quota_counters.used + excluded.used
         WHERE quota_counters.used + excluded.used <= $4::bigint
         RETURNING used
       ), usage AS (
         INSERT INTO usage_counters (account_id, bucket_start, key_id, requests, lookups)
         SELECT $1::text, $5::bigint, $6::text, 1, $3::bigint WHERE EXISTS (SELECT 1 FROM quota)
         ON CONFLICT (account_id, bucket_start, key_id) DO UPDATE SET
           requests = usage_counters.requests + 1, lookups = usage_counters.lookups + excluded.lookups
       )
       SELECT (SELECT used FROM quota) AS charged,
              (SELECT used FROM quota_counters WHERE account_id = $1::text AND period_start = $2::bigint) AS current`,
      [c.account_id, c.period_start, c.lookups, c.quota_limit, c.bucket_start, c.key_id],
      tx,
    );
    return row?.charged != null ? { charged: true, used: row.charged } : { charged: false, used: row?.current ?? 0 };
  }

  async quotaUsed(accountId: string, periodStart: number): Promise<number> {
    const row = await this.#one<{ used: number }>(
      "SELECT used FROM quota_counters WHERE account_id = $1 AND period_start = $2",
      [accountId, periodStart],
    );
    return row?.used ?? 0;
  }

  async usageRows(accountId: string, from: number, to: number): Promise<UsageRow[]> {
    return this.#query<UsageRow>(
      `SELECT bucket_start, key_id, requests, lookups FROM usage_counters
       WHERE account_id = $1 AND bucket_start >= $2 AND bucket_start < $3 ORDER BY bucket_start`,
      [accountId, from, to],
    );
  }

  async *dump(): AsyncIterable<DumpRow> {
    for (const table of TABLE_NAMES) {
      for (const row of await this.#query<DumpRow["row"]>(`SELECT ${TABLES[table].join(", ")} FROM ${table}`)) {
        yield { table, row };
      }
    }
  }

  async restore(rows: AsyncIterable<DumpRow>): Promise<number> {
    return this.#transaction(async (tx) => {
      let count = 0;
      for await (const { table, row } of rows) {
        await this.#query(restoreSql(table, (i) => `$${i}`), TABLES[table].map((c) => row[c] ?? null), tx);
        count++;
      }
      return count;
    });
  }
}
