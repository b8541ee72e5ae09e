import { statSync } from "node:fs";
import type Database from "better-sqlite3";
import { DatabaseCorrupt, DatabaseFileGone, DEFAULT_QUERY_TIMEOUT_MS, SchemaTooNew, StoreUnavailable } from "../errors.js";
import { GrantCache } from "../grant-cache.js";
import { chargeByGroups, GroupCommit } from "../group-commit/group-commit.js";
import type { Dialect, SqlDriver, Statement, StatementResult } from "../sql/sql-driver.js";
import type { Charge, ChargeOutcome, Proof, SchemaVersions } from "../store.js";
import { IDEMPOTENCY_WINDOW_MS } from "../../domain/idempotency-window.js";
import { FORGET_EXPIRED, PROVE, UNPROVE } from "../sql/idempotency-sql.js";
import { whenNotBusy } from "./busy.js";
import { openDatabase } from "./open-database.js";

type Prepared = Database.Statement<unknown[], unknown>;

/** auto_vacuum's INCREMENTAL mode, as the pragma reads it. */
const INCREMENTAL = 2;
/** Free pages handed back per step: a few milliseconds of the write lock. */
const RECLAIM_PAGES = 256;
/** The readiness probe waits less (never more than the lock wait): it answers whether a write can happen now. */
const PROBE_WAIT_MS = 1_000;

export interface SqliteOptions {
  /** How long a statement waits for another connection's write lock before it is answered 503: the query timeout. */
  lockWaitMs?: number;
}

/**
 * The embedded dialect: one SQLite file in WAL mode through better-sqlite3. Every call is synchronous, so
 * a transaction runs to completion without interleaving; statements are prepared once and kept. Lock
 * waits happen between attempts, off the event loop (busy.ts).
 */
export class SqliteDriver implements SqlDriver {
  readonly dialect = "sqlite";
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Prepared>();
  /** Charges gathered over two turns of the event loop (group-commit.ts), committed as one transaction. */
  readonly #charges: GroupCommit;
  /** The file opened, as the file system names it: still at its path while it is the store's file. */
  readonly #file: { dev: number; ino: number } | undefined;
  readonly #lockWaitMs: number;

  constructor(
    private readonly path: string,
    { lockWaitMs = DEFAULT_QUERY_TIMEOUT_MS }: SqliteOptions = {},
  ) {
    this.#db = openDatabase(path);
    this.#file = path === ":memory:" ? undefined : statSync(path);
    this.#lockWaitMs = lockWaitMs;
    const chargeAll = this.#db.transaction((charges: Charge[]) => this.#chargeAndProve(charges)).immediate;
    // A commit waits for the lock until its oldest charge's deadline (charges wait their turn meanwhile).
    const commit = (charges: Charge[], deadline: number) => whenNotBusy(() => chargeAll(charges), deadline - performance.now());
    this.#charges = new GroupCommit(commit, 0, lockWaitMs);
  }

  /** Charges wait past the lock wait, or the last ones could not be committed (readiness). */
  get chargesStalled(): boolean {
    return this.#charges.stalled;
  }

  /** A statement prepared on first use and kept for the life of the connection. */
  #prepared(sql: string): Prepared {
    // A closed database (shutting down) is unavailable, not broken: 503, not 500.
    if (!this.#db.open) throw new StoreUnavailable();
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.#db.prepare(sql)));
    return statement;
  }

  all<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return whenNotBusy(() => this.#prepared(sql).all(...params) as R[], this.#lockWaitMs);
  }

  get<R>(sql: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return whenNotBusy(() => this.#prepared(sql).get(...params) as R | undefined, this.#lockWaitMs);
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return whenNotBusy(() => this.#prepared(sql).run(...params).changes, this.#lockWaitMs);
  }

  atomically(statements: readonly Statement[]): Promise<StatementResult[]> {
    const all = this.#db.transaction(() => statements.map((s) => this.#execute(s)));
    return whenNotBusy(() => all.immediate(), this.#lockWaitMs);
  }

  #execute({ sql, params = [] }: Statement): StatementResult {
    const statement = this.#prepared(sql);
    if (statement.reader) return { rows: statement.all(...params), changes: 0 };
    return { rows: [], changes: statement.run(...params).changes };
  }

  isUniqueViolation(error: unknown, table: string): boolean {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return code === "SQLITE_CONSTRAINT_UNIQUE" && String(message).includes(`${table}.`);
  }

  async probeWrite({ sql, params = [] }: Statement): Promise<void> {
    // A file deleted (or replaced) under a running server still takes writes, on an inode nobody will open again.
    if (this.#file) {
      const now = statSync(this.path, { throwIfNoEntry: false });
      if (!now || now.ino !== this.#file.ino || now.dev !== this.#file.dev) throw new DatabaseFileGone(this.path);
    }
    await whenNotBusy(() => this.#prepared(sql).run(...params), Math.min(PROBE_WAIT_MS, this.#lockWaitMs));
  }

  /** Refuses a file that fails SQLite's quick_check (damaged pages or indexes), naming the first problem. */
  checkIntegrity(): void {
    let problems: string[];
    try {
      problems = (this.#db.pragma("quick_check", { simple: false }) as Array<{ quick_check: string }>).map((row) => row.quick_check);
    } catch (error) {
      problems = [(error as Error).message];
    }
    if (problems.length !== 1 || problems[0] !== "ok") throw new DatabaseCorrupt(this.path, problems[0] ?? "no answer");
  }

  async migrate(migrations: ReadonlyArray<(dialect: Dialect) => string>): Promise<SchemaVersions> {
    // One IMMEDIATE transaction: two processes starting at once cannot both apply a migration.
    const apply = this.#db.transaction((): SchemaVersions => {
      const version = this.#db.pragma("user_version", { simple: true }) as number;
      if (version > migrations.length) throw new SchemaTooNew(version, migrations.length);
      for (let i = version; i < migrations.length; i++) this.#db.exec(migrations[i]!("sqlite"));
      if (version < migrations.length) this.#db.pragma(`user_version = ${migrations.length}`);
      return { from: version, to: migrations.length };
    });
    return whenNotBusy(() => apply.immediate(), this.#lockWaitMs);
  }

  charge(charge: Charge): Promise<ChargeOutcome> {
    return this.#charges.add(charge);
  }

  /**
   * A commit's charges with their proofs: the proofs first, so that a request proven already (answered
   * meanwhile: a replay) is charged nothing; then the others by groups (group-commit.ts); last, the
   * proof of a charge the quota refused goes again, as its request proved nothing.
   */
  #chargeAndProve(charges: readonly Charge[]): ChargeOutcome[] {
    const outcomes: ChargeOutcome[] = new Array(charges.length);
    const fresh: number[] = [];
    charges.forEach((c, i) => {
      if (!c.proof || this.#prove(c.proof)) fresh.push(i);
      else outcomes[i] = { charged: false, used: this.#used(c), replayed: true };
    });
    const charged = chargeByGroups(
      fresh.map((i) => charges[i]!),
      (c, requests) => this.#charge(c, requests),
    );
    fresh.forEach((i, j) => {
      const proof = charges[i]!.proof;
      outcomes[i] = charged[j]!;
      if (proof && !charged[j]!.charged) this.#prepared(UNPROVE).run(proof.key);
    });
    return outcomes;
  }

  /** Writes `proof` unless a live one is under its key (an expired one gives way): answers whether it was written. */
  #prove(proof: Proof): boolean {
    const prove = () => this.#prepared(PROVE).run(proof.key, proof.fingerprint, proof.status, proof.lookups, proof.at, null).changes === 1;
    return prove() || (this.#prepared(FORGET_EXPIRED).run(proof.key, proof.at - IDEMPOTENCY_WINDOW_MS).changes === 1 && prove());
  }

  /** Charges `c`, of `requests` requests: the quota check and both counters. */
  #charge(c: Charge, requests: number): ChargeOutcome {
    // The quota check is the condition of the UPDATE (or, for a period's first charge, of the INSERT): the
    // counter only moves when the lookups fit. No RETURNING: SQLite gathers RETURNING rows in a scratch
    // table whose memory is taken from and handed back to the system on every statement; plain statements
    // and a read of the counter take none.
    const moved =
      this.#prepared("UPDATE quota_counters SET used = used + ? WHERE account_id = ? AND period_start = ? AND used + ? <= ?")
        .run(c.lookups, c.account_id, c.period_start, c.lookups, c.quota_limit).changes === 1 ||
      this.#prepared(
        `INSERT INTO quota_counters (account_id, period_start, used) SELECT ?, ?, ? WHERE ? <= ?
         ON CONFLICT (account_id, period_start) DO NOTHING`,
      ).run(c.account_id, c.period_start, c.lookups, c.lookups, c.quota_limit).changes === 1;
    const used = this.#used(c);
    if (!moved) return { charged: false, used };
    this.#prepared(
      `INSERT INTO usage_counters (account_id, bucket_start, key_id, requests, lookups) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id, bucket_start, key_id) DO UPDATE SET
         requests = requests + excluded.requests, lookups = lookups + excluded.lookups`,
    ).run(c.account_id, c.bucket_start, c.key_id, requests, c.lookups);
    return { charged: true, used };
  }

  /** The lookups used in the period of `c`'s quota. */
  #used(c: Charge): number {
    const row = this.#prepared("SELECT used FROM quota_counters WHERE account_id = ? AND period_start = ?").get(c.account_id, c.period_start) as
      | { used: number }
      | undefined;
    return row?.used ?? 0;
  }

  async reclaimSpace(): Promise<void> {
    // A file made before auto_vacuum was INCREMENTAL keeps its free pages, which SQLite reuses for new rows.
    if (this.#prepared("PRAGMA auto_vacuum").pluck().get() !== INCREMENTAL) return;
    while ((this.#prepared("PRAGMA freelist_count").pluck().get() as number) > 0) {
      await whenNotBusy(() => this.#db.pragma(`incremental_vacuum(${RECLAIM_PAGES})`), this.#lockWaitMs);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  grantCache(): GrantCache {
    // Another process's commits (an operator command changing a subscription or a plan) move data_version.
    // It is read at most every 100 ms, not on every lookup: such a change is seen within that.
    const dataVersion = () => this.#prepared("PRAGMA data_version").pluck().get() as number;
    let seen = dataVersion();
    return new GrantCache({
      changedElsewhere: () => {
        const version = dataVersion();
        const moved = version !== seen;
        seen = version;
        return moved;
      },
    });
  }

  async *iterate<R>(sql: string): AsyncIterable<R> {
    for (const row of this.#prepared(sql).iterate()) yield row as R;
  }

  async load(statements: AsyncIterable<Statement>): Promise<number> {
    // better-sqlite3 transactions cannot span awaits, so this one is opened by hand; the import command
    // is the only user of the connection while it runs.
    await whenNotBusy(() => this.#db.exec("BEGIN IMMEDIATE"), this.#lockWaitMs);
    let count = 0;
    try {
      for await (const statement of statements) {
        this.#execute(statement);
        count++;
      }
      this.#db.exec("COMMIT");
      return count;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.#charges.drain();
    if (this.#db.open) this.#db.close();
  }
}
