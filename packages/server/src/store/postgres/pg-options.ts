/**
 * What sits between the server and PostgreSQL. "none": the server's connections are its own (directly, or
 * through a pooler in session mode, which gives each client one server connection for as long as it is
 * connected). "transaction": a pooler in transaction mode (PgBouncer's `pool_mode = transaction`, and most
 * managed poolers), which hands a client a server connection for one transaction at a time, so nothing may
 * outlive a transaction: no named prepared statements, no LISTEN.
 */
export type PgPooler = "none" | "transaction";

/** How the store reaches PostgreSQL. */
export interface PgOptions {
  /** The schema every connection uses (tests; sent as a startup parameter, which a pooler may refuse). */
  schema?: string;
  /** Connections in the pool (default 10). */
  max?: number;
  /**
   * The bound on a store call (DEFAULT_QUERY_TIMEOUT_MS unless set): waiting for a connection of the pool,
   * the statements, and for a charge its group commit and that commit's resolution. Past it the call is
   * StoreUnavailable (503). Without a transaction pooler each connection also sets statement_timeout to it.
   */
  queryTimeoutMs?: number;
  pooler?: PgPooler;
  /**
   * With a transaction pooler: a URL of the same database that reaches PostgreSQL without it (or through a
   * pooler in session mode), for the one connection that LISTENs to grant changes. Without it, grants
   * changed elsewhere are polled for: each cached grant is read again once it is GRANT_MAX_AGE_MS old.
   */
  directUrl?: string;
}
