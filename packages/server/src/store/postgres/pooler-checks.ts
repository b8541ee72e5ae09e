import pg from "pg";
import type { PgOptions } from "./pg-options.js";

/** What was declared about a pooler does not match what the connections show: the store refuses to start. */
export class PoolerMisdeclared extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PoolerMisdeclared";
  }
}

/**
 * Checks, once at start, that the connections are what `options` says they are:
 * - undeclared, no transaction pooler may be in between (named statements would fail on the backends
 *   they were not prepared on, and notices would be lost);
 * - with a direct URL, that URL reaches the same database and schema without a transaction pooler (its
 *   LISTEN must stay on one backend).
 */
export async function checkPooler(config: pg.ClientConfig, options: PgOptions): Promise<void> {
  if ((options.pooler ?? "none") === "none") {
    if (await sharesBackends(config)) {
      throw new PoolerMisdeclared(
        "PostgreSQL is reached through a pooler in transaction mode (two connections ran on one backend): " +
          "declare it with --pg-pooler transaction (ICCID_PG_POOLER=transaction), or use session mode",
      );
    }
    return;
  }
  if (options.directUrl === undefined) return;
  const direct = { ...config, connectionString: options.directUrl };
  const onDirect = <T>(work: Promise<T>) =>
    work.catch((error: unknown) => {
      throw new PoolerMisdeclared(`--pg-direct-url: ${wordsOf(error)}`);
    });
  if (await onDirect(sharesBackends(direct))) {
    throw new PoolerMisdeclared(
      "--pg-direct-url goes through a pooler in transaction mode: it must reach PostgreSQL directly (or through session mode), to LISTEN",
    );
  }
  const [pooled, unpooled] = await Promise.all([placeOf(config), onDirect(placeOf(direct))]);
  if (pooled !== unpooled) {
    throw new PoolerMisdeclared(`--pg-direct-url reaches ${unpooled}, --db reaches ${pooled}: both must name the same database`);
  }
}

/**
 * Whether clients made with `config` share backends, as a transaction (or statement) pooler makes them:
 * while client B holds a transaction, client A's next statement runs on another backend than its last, or
 * B's transaction got the backend A had. A direct connection, or a session pooler, keeps each client on
 * a backend of its own, so a yes is never wrong; a pooler that happens to give A the same backend each
 * time looks like none, hence a few tries.
 */
async function sharesBackends(config: pg.ClientConfig): Promise<boolean> {
  const [a, b] = [new pg.Client(config), new pg.Client(config)];
  for (const client of [a, b]) client.on("error", () => {});
  try {
    await a.connect();
    await b.connect();
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = await backendOf(a);
      await b.query("BEGIN");
      const held = await backendOf(b);
      const after = await backendOf(a);
      await b.query("ROLLBACK");
      if (held === before || after !== before) return true;
    }
    return false;
  } finally {
    await Promise.all([a.end().catch(() => {}), b.end().catch(() => {})]);
  }
}

/** An error's message; a connection tried on several addresses fails with each one's (an AggregateError). */
function wordsOf(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(wordsOf).join("; ");
  return error instanceof Error ? error.message : String(error);
}

async function backendOf(client: pg.Client): Promise<number> {
  return (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
}

/** The database and schema a connection works in, and the PostgreSQL server (by its start time) it is on. */
async function placeOf(config: pg.ClientConfig): Promise<string> {
  const client = new pg.Client(config);
  client.on("error", () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ db: string; schema: string; started: string }>(
      "SELECT current_database() AS db, current_schema() AS schema, pg_postmaster_start_time()::text AS started",
    );
    const { db, schema, started } = rows[0]!;
    return `database ${db} (schema ${schema}) of the PostgreSQL started at ${started}`;
  } finally {
    await client.end().catch(() => {});
  }
}
