import type { GrantCache } from "../grant-cache.js";
import type { Charge, ChargeOutcome, SchemaVersions } from "../store.js";

export type Dialect = "sqlite" | "postgres";

/** One SQL statement with `?` placeholders (a driver rewrites them if its dialect spells them otherwise). */
export interface Statement {
  sql: string;
  params?: readonly unknown[];
}

/** What one statement of a transaction did: its rows (RETURNING or SELECT) and how many rows it changed. */
export interface StatementResult {
  rows: unknown[];
  changes: number;
}

/**
 * What a dialect provides to the one SQL store (sql-store.ts): running statements, prepared once and
 * kept, with the dialect's faults reported as StoreUnavailable where the store is out of reach; and the
 * few things the dialects truly do differently.
 */
export interface SqlDriver {
  readonly dialect: Dialect;

  all<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  get<R>(sql: string, params?: readonly unknown[]): Promise<R | undefined>;
  /** Answers how many rows the statement changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Runs the statements in one transaction, in order: all or nothing. */
  atomically(statements: readonly Statement[]): Promise<StatementResult[]>;
  /** Whether `error` is a unique-key violation on `table` (the caller lost a race or a duplicate). */
  isUniqueViolation(error: unknown, table: string): boolean;

  /** Whether charges cannot be committed now (group-commit.ts, `stalled`): the readiness probe reports it. */
  readonly chargesStalled: boolean;
  /** The readiness probe's write: waits less for a lock than requests do. */
  probeWrite(statement: Statement): Promise<void>;
  /** Applies the migrations not yet applied, in one transaction; refuses a schema newer than `migrations` knows. */
  migrate(migrations: ReadonlyArray<(dialect: Dialect) => string>): Promise<SchemaVersions>;
  /**
   * Checks the quota and meters one answered request, with its proof when it has one, in one transaction
   * (a group commit's: group-commit/group-commit.ts).
   */
  charge(charge: Charge): Promise<ChargeOutcome>;
  /** Hands pages freed by deletions back to the file system in short steps; a no-op where the database does it itself. */
  reclaimSpace(): Promise<void>;
  /** A grant cache that hears of changes made by other processes or instances the dialect's way. */
  grantCache(): GrantCache;
  /** Every row of `sql`, a few at a time where the dialect can. */
  iterate<R>(sql: string): AsyncIterable<R>;
  /** Runs the statements in one transaction while nothing else uses the store (an import). */
  load(statements: AsyncIterable<Statement>): Promise<number>;
  close(): Promise<void>;
}
