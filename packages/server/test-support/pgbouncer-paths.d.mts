/** The PgBouncer test, as a path from packages/server. */
export declare const PGBOUNCER_TEST: string;
export declare const PGBOUNCER: string;
