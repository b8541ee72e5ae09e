import type { Statement } from "./sql/sql-driver.js";

/**
 * The tables and columns every store holds, in foreign-key order: what `export` writes and `import`
 * reads, so data moves between SQLite and PostgreSQL without either knowing the other.
 */
export const TABLES = {
  plans: ["name", "rate_limit", "window_seconds", "monthly_lookups"],
  accounts: ["id", "email", "password_hash", "created_at"],
  subscriptions: ["account_id", "status", "plan", "period_anchor"],
  api_keys: [
    "id", "account_id", "name", "prefix", "last4", "hash", "created_at", "last_used_at", "revoked_at", "scopes", "expires_at", "replaced_by",
  ],
  sessions: ["hash", "account_id", "created_at", "last_seen_at", "expires_at"],
  custom_prefixes: ["prefix", "name", "country_iso2"],
  quota_counters: ["account_id", "period_start", "used"],
  usage_counters: ["account_id", "bucket_start", "key_id", "requests", "lookups"],
  audit_events: ["id", "account_id", "at", "action", "actor_type", "actor_id", "ip", "user_agent", "target", "attempts"],
  unknown_prefixes: ["day", "prefix", "count", "first_seen", "last_seen"],
} as const;

export type TableName = keyof typeof TABLES;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** One row of one table, as exported (one JSON line each). */
export interface DumpRow {
  table: TableName;
  row: Record<string, string | number | null>;
}

/** Values for columns an export from an older schema lacks: a key from before scopes had every scope. */
const ADDED_COLUMN_DEFAULTS: Partial<Record<TableName, Record<string, string>>> = {
  api_keys: { scopes: "lookup usage:read" },
};

/**
 * The INSERTs that restore dumped rows, their parameters in TABLES order. Plans are upserted: a migrated
 * database already holds the default plan, and the exported one should win.
 */
export async function* restoreStatements(rows: AsyncIterable<DumpRow>): AsyncIterable<Statement> {
  for await (const dumped of rows) yield restoreStatement(dumped);
}

function restoreStatement({ table, row }: DumpRow): Statement {
  const columns = TABLES[table];
  const params = columns.map((c) => row[c] ?? ADDED_COLUMN_DEFAULTS[table]?.[c] ?? null);
  const insert = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  if (table !== "plans") return { sql: insert, params };
  return { sql: `${insert} ON CONFLICT (name) DO UPDATE SET ${columns.slice(1).map((c) => `${c} = excluded.${c}`).join(", ")}`, params };
}
