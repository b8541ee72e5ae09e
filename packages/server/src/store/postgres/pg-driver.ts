import pg from "pg";
import { DEFAULT_QUERY_TIMEOUT_MS, SchemaTooNew } from "../errors.js";
import { GrantCache } from "../grant-cache.js";
import type { Dialect, SqlDriver, Statement, StatementResult } from "../sql/sql-driver.js";
import type { Charge, ChargeOutcome, SchemaVersions } from "../store.js";
import { GrantNotices } from "./grant-notices.js";
import { GroupCommit } from "../group-commit/group-commit.js";
import { PgGroupCommit } from "../group-commit/pg-group-commit.js";
import { storeError } from "./pg-errors.js";
import type { PgOptions } from "./pg-options.js";
import { checkPooler, PoolerMisdeclared } from "./pooler-checks.js";
import { withClient, type Queryable } from "./pooled-client.js";
import { inTransaction } from "./transaction.js";

// Times and counters are BIGINT; every value this store keeps fits a JS number exactly, so read them as
// numbers rather than pg's default strings.
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as "text"),
};

const MIGRATION_LOCK = 0x1cc1d; // any constant: serialises migrations across instances
/** The longest a cached key grant is used: the bound on seeing another instance's change. */
const GRANT_MAX_AGE_MS = 1_000;
/**
 * Migrations, export and import are the operator's bulk work, not held to the query timeout: each runs in
 * a transaction without statement_timeout, a statement of it answered within this.
 */
const BULK_TIMEOUT_MS = 600_000;

/**
 * The shared dialect for several instances: PostgreSQL through a connection pool. Statements are written
 * with `?` and sent with `$n` placeholders: as named prepared statements, so each connection parses and
 * plans each statement once; behind a transaction pooler unnamed, since consecutive statements of one
 * connection may run on different backends, where a name prepared on one is unknown or already taken.
 */
export class PgDriver implements SqlDriver {
  readonly dialect = "postgres";
  readonly #pool: pg.Pool;
  readonly #connection: pg.ClientConfig;
  readonly #options: PgOptions;
  readonly #prepared = new Map<string, { name?: string; text: string }>();
  readonly #groupCommit: PgGroupCommit;
  /** A commit is a round trip and an fsync: a group may wait a millisecond to fill (group-commit/group-commit.ts). */
  readonly #charges: GroupCommit;
  readonly #timeoutMs: number;
  #notices: GrantNotices | undefined;

  constructor(connectionString: string, options: PgOptions = {}) {
    this.#options = options;
    const timeoutMs = (this.#timeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
    this.#connection = {
      connectionString,
      types,
      connectionTimeoutMillis: timeoutMs,
      // No query waits forever on a connection that died without a word: past this it is lost (503). The
      // pool's calls are bounded tighter, connection and statements together (withClient's deadline).
      query_timeout: timeoutMs,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    };
    this.#pool = new pg.Pool({
      ...this.#connection,
      max: options.max ?? 10,
      // Where the sessions are the server's own, PostgreSQL gives up on a statement about when the client
      // does, so a lock wait does not keep a backend after its request was answered 503. Set once per
      // connection (as a startup parameter a session pooler would refuse it); behind a transaction pooler a
      // SET would stay on a backend others use: there the role's statement_timeout is the operator's.
      ...(this.#pooled ? {} : { onConnect: (client: pg.ClientBase) => client.query(`SET statement_timeout = ${Math.ceil(timeoutMs)}`) }),
    });
    this.#pool.on("error", () => {}); // an idle client's dropped connection is replaced on next use
    this.#groupCommit = new PgGroupCommit(this.#pool, { named: !this.#pooled, timeoutMs });
    this.#charges = new GroupCommit((charges, deadline) => this.#groupCommit.commit(charges, deadline), 1, timeoutMs);
  }

  /** When a store call begun now must be answered by (performance.now). */
  #deadline(): number {
    return performance.now() + this.#timeoutMs;
  }

  get chargesStalled(): boolean {
    return this.#charges.stalled;
  }

  /** Behind a pooler in transaction mode: nothing may outlive a transaction. */
  get #pooled(): boolean {
    return this.#options.pooler === "transaction";
  }

  /** The statement as PostgreSQL takes it: `$n` placeholders, and a name unless pooled, made once per statement. */
  #query(sql: string, params: readonly unknown[]): pg.QueryConfig {
    let prepared = this.#prepared.get(sql);
    if (!prepared) {
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      prepared = this.#pooled ? { text } : { name: `s${this.#prepared.size}`, text };
      this.#prepared.set(sql, prepared);
    }
    return { ...prepared, values: params as unknown[] };
  }

  /** One statement: on `on` (a transaction's client), else on a connection of the pool within the query timeout. */
  async #rows<R>(sql: string, params: readonly unknown[] = [], on?: Queryable): Promise<pg.QueryResult<R & pg.QueryResultRow>> {
    const query = this.#query(sql, params);
    try {
      if (on) return await on.query<R & pg.QueryResultRow>(query);
      return await withClient(this.#pool, (client) => client.query<R & pg.QueryResultRow>(query), undefined, this.#deadline());
    } catch (error) {
      throw storeError(error);
    }
  }

  async all<R>(sql: string, params?: readonly unknown[]): Promise<R[]> {
    return (await this.#rows<R>(sql, params)).rows;
  }

  async get<R>(sql: string, params?: readonly unknown[]): Promise<R | undefined> {
    return (await this.#rows<R>(sql, params)).rows[0];
  }

  async run(sql: string, params?: readonly unknown[]): Promise<number> {
    return (await this.#rows(sql, params)).rowCount ?? 0;
  }

  atomically(statements: readonly Statement[]): Promise<StatementResult[]> {
    return inTransaction(
      this.#pool,
      async (tx) => {
        const results: StatementResult[] = [];
        for (const { sql, params = [] } of statements) {
          const { rows, rowCount } = await this.#rows(sql, params, tx);
          results.push({ rows, changes: rowCount ?? 0 });
        }
        return results;
      },
      this.#deadline(),
    );
  }

  /** The operator's bulk work in one transaction, without statement_timeout (BULK_TIMEOUT_MS). */
  #bulk<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(
      this.#pool,
      async (tx) => {
        await tx.query("SET LOCAL statement_timeout = 0");
        return work(tx);
      },
      performance.now() + BULK_TIMEOUT_MS,
    );
  }

  isUniqueViolation(error: unknown, table: string): boolean {
    const { code, table: violated } = error as { code?: unknown; table?: unknown };
    return code === "23505" && violated === table;
  }

  async probeWrite({ sql, params = [] }: Statement): Promise<void> {
    await this.#rows(sql, params);
  }

  /** Every opener of the store starts with this: it also checks, once, that the pooler is as declared (pooler-checks.ts). */
  async migrate(migrations: ReadonlyArray<(dialect: Dialect) => string>): Promise<SchemaVersions> {
    // One transaction under an advisory lock (released with the transaction, so a transaction pooler
    // keeps it too): instances starting together apply each migration once.
    const versions = await this.#bulk(async (tx): Promise<SchemaVersions> => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await tx.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
      const { rows } = await tx.query<{ version: number }>("SELECT version FROM schema_version");
      const version = rows[0]?.version ?? 0;
      if (version > migrations.length) throw new SchemaTooNew(version, migrations.length);
      for (let i = version; i < migrations.length; i++) await tx.query(migrations[i]!("postgres"));
      if (!rows[0]) await tx.query("INSERT INTO schema_version (version) VALUES ($1)", [migrations.length]);
      else if (version < migrations.length) await tx.query("UPDATE schema_version SET version = $1", [migrations.length]);
      return { from: version, to: migrations.length };
    });
    await checkPooler(this.#connection, this.#options).catch((error: unknown) => {
      throw error instanceof PoolerMisdeclared ? error : storeError(error);
    });
    return versions;
  }

  charge(charge: Charge): Promise<ChargeOutcome> {
    return this.#charges.add(charge);
  }

  async reclaimSpace(): Promise<void> {
    // Autovacuum marks deleted rows' space free, and new rows take it.
  }

  grantCache(): GrantCache {
    // Other instances' changes arrive as notices (migration 4), on a connection of its own: the pool's
    // URL, or behind a transaction pooler the direct one (a LISTEN through the pooler would stay on a
    // backend other clients' transactions then run on). Until it listens, and whenever it is lost, the
    // cache answers nothing; a notice lost without the connection noticing is bounded by the grants' age.
    // Behind a pooler without a direct URL that age is the poll: each grant is read again once 1 s old.
    const cache = new GrantCache({ maxAgeMs: GRANT_MAX_AGE_MS });
    const listenOn = this.#pooled ? this.#options.directUrl : this.#connection.connectionString;
    if (listenOn === undefined) return cache;
    cache.enabled = false;
    this.#notices = new GrantNotices(
      () => new pg.Client({ ...this.#connection, connectionString: listenOn }),
      () => cache.clear(),
      (listening) => (cache.enabled = listening),
    );
    this.#notices.start();
    return cache;
  }

  async *iterate<R>(sql: string): AsyncIterable<R> {
    const { rows } = await this.#bulk((tx) => this.#rows<R>(sql, [], tx));
    for (const row of rows) yield row as R;
  }

  load(statements: AsyncIterable<Statement>): Promise<number> {
    return this.#bulk(async (tx) => {
      let count = 0;
      for await (const { sql, params = [] } of statements) {
        await this.#rows(sql, params, tx);
        count++;
      }
      return count;
    });
  }

  async close(): Promise<void> {
    await this.#notices?.close();
    await this.#charges.drain();
    await this.#groupCommit.close();
    await this.#pool.end();
  }
}
