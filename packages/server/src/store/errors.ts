/**
 * The bound on a request's store work unless `--query-timeout` sets another: a request whose store work
 * (a connection of the pool, its statements, its charge's commit and that commit's resolution) is not
 * done by then is answered StoreUnavailable. Deadlines are on the monotonic clock (`performance.now()`): a
 * step of the wall clock must not move them.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 5_000;

/**
 * The store cannot be reached or is too busy to answer: the request gets 503 `unavailable`, not a 500.
 * The message says why in the words of the fault beneath, for the operator
 * (`the store is unavailable (connect ECONNREFUSED 127.0.0.1:5432)`); a client is told less.
 */
export class StoreUnavailable extends Error {
  constructor(options?: { cause?: unknown }) {
    const why = faultWords(options?.cause);
    super(why ? `the store is unavailable (${why})` : "the store is unavailable", options);
    this.name = "StoreUnavailable";
  }
}

/** An error's message; for a connection tried on several addresses (AggregateError, no message of its own), each one's. */
function faultWords(fault: unknown): string {
  if (fault instanceof AggregateError && !fault.message) return fault.errors.map(faultWords).filter(Boolean).join("; ");
  return fault instanceof Error ? fault.message : "";
}

/** Charges are not being committed within the query timeout (the readiness probe says so). */
export class ChargesStalled extends StoreUnavailable {
  constructor() {
    super();
    this.message = "charges are not being committed within the query timeout";
    this.name = "ChargesStalled";
  }
}

/** The database was written by a newer server (a later schema version than this one knows). */
export class SchemaTooNew extends Error {
  constructor(found: number, known: number) {
    super(`the database schema is version ${found}, newer than this server's ${known}: upgrade the server, or restore a backup`);
    this.name = "SchemaTooNew";
  }
}

/**
 * The SQLite file this server opened is no longer at its path (deleted, or replaced by another file):
 * what it writes now goes nowhere a restart would find.
 */
export class DatabaseFileGone extends StoreUnavailable {
  constructor(readonly path: string) {
    super();
    this.message = `the database file ${path} was deleted or replaced while the server ran`;
    this.name = "DatabaseFileGone";
  }
}

/** The SQLite file fails SQLite's integrity check: serving from it would answer from damaged pages. */
export class DatabaseCorrupt extends Error {
  constructor(path: string, problem: string) {
    super(
      `the database file ${path} fails SQLite's integrity check (${problem}): restore it from a backup ` +
        "(see docs/operations.md, \"A damaged database\") before starting the server",
    );
    this.name = "DatabaseCorrupt";
  }
}

/** The PostgreSQL server has no database of the name in the URL. */
export class DatabaseMissing extends StoreUnavailable {
  constructor(database: string, options?: { cause?: unknown }) {
    super(options);
    this.message =
      `PostgreSQL has no database "${database}": create it (\`createdb ${database}\`, or \`CREATE DATABASE "${database}"\` in psql) ` +
      "or correct the name in --db / ICCID_DB";
    this.name = "DatabaseMissing";
  }
}

/** PostgreSQL refused the user or password the URL gives (SQLSTATE class 28): a setting to correct, not an outage. */
export class CredentialsRefused extends StoreUnavailable {
  constructor(options: { cause: unknown }) {
    super(options);
    this.message = `PostgreSQL refused the credentials in --db / ICCID_DB (${(options.cause as Error).message}): correct the user or password`;
    this.name = "CredentialsRefused";
  }
}
