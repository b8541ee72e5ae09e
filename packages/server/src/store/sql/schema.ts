import { POSTGRES_PROVING_COMMIT } from "./proving-commit-sql.js";
import type { Dialect } from "./sql-driver.js";

/** A 64-bit integer: times are epoch milliseconds and counters may pass 2^31. SQLite's INTEGER is 64-bit. */
const INT64: Record<Dialect, string> = { sqlite: "INTEGER", postgres: "BIGINT" };
/** Raw bytes (hashes). */
const BYTES: Record<Dialect, string> = { sqlite: "BLOB", postgres: "BYTEA" };

/**
 * The schema's migrations, one definition for both dialects: applied in order, each exactly once (SQLite
 * counts them in `PRAGMA user_version`, PostgreSQL in `schema_version`, under an advisory lock). Only what
 * the dialects spell differently is spelled twice: column types through INT64, and triggers.
 */
export const MIGRATIONS: ReadonlyArray<(dialect: Dialect) => string> = [
  (d) => `
  CREATE TABLE plans (
    name TEXT PRIMARY KEY,
    rate_limit INTEGER NOT NULL CHECK (rate_limit > 0),
    window_seconds INTEGER NOT NULL CHECK (window_seconds > 0),
    monthly_lookups ${INT64[d]} NOT NULL CHECK (monthly_lookups >= 0)
  );
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at ${INT64[d]} NOT NULL
  );
  CREATE TABLE subscriptions (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('active', 'canceled', 'past_due')),
    plan TEXT NOT NULL REFERENCES plans(name),
    period_anchor ${INT64[d]} NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT,
    prefix TEXT NOT NULL,
    last4 TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at ${INT64[d]} NOT NULL,
    last_used_at ${INT64[d]},
    revoked_at ${INT64[d]}
  );
  CREATE INDEX api_keys_account ON api_keys(account_id, created_at);
  CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at ${INT64[d]} NOT NULL,
    last_seen_at ${INT64[d]} NOT NULL,
    expires_at ${INT64[d]} NOT NULL
  );
  CREATE INDEX sessions_expiry ON sessions(expires_at);
  CREATE TABLE custom_prefixes (
    prefix TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    country_iso2 TEXT
  );
  CREATE TABLE quota_counters (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    period_start ${INT64[d]} NOT NULL,
    used ${INT64[d]} NOT NULL CHECK (used >= 0),
    PRIMARY KEY (account_id, period_start)
  );
  CREATE TABLE usage_counters (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    bucket_start ${INT64[d]} NOT NULL,
    key_id TEXT NOT NULL,
    requests ${INT64[d]} NOT NULL,
    lookups ${INT64[d]} NOT NULL,
    PRIMARY KEY (account_id, bucket_start, key_id)
  );`,

  // 2: custom prefixes apply without a restart, on every instance. Every change to the table moves the
  // generation (triggers, so restores and hand edits count too); servers poll that one row.
  (d) => `
  CREATE TABLE custom_prefix_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation ${INT64[d]} NOT NULL
  );
  INSERT INTO custom_prefix_generation (id, generation) VALUES (1, 0);
  ${d === "sqlite" ? SQLITE_PREFIX_TRIGGERS : POSTGRES_PREFIX_TRIGGER}`,

  // 3: the readiness probe's one row (see heartbeat.ts).
  (d) => `CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at ${INT64[d]} NOT NULL);`,

  // 4: PostgreSQL instances cache key grants and hear of every change a grant depends on through these
  // notices (postgres/grant-notices.ts); only columns a grant reads, so touching last_used_at notifies
  // nobody. SQLite needs nothing: its servers watch PRAGMA data_version.
  (d) => (d === "postgres" ? POSTGRES_GRANT_TRIGGERS : ""),

  // 5: on PostgreSQL a group commit is one statement in autocommit, one round trip (group-commit/pg-group-commit.ts):
  // this function charges the groups and leaves a receipt, by which an answer lost with its connection is
  // resolved. SQLite commits in-process and needs neither.
  (d) => (d === "postgres" ? POSTGRES_GROUP_COMMIT : ""),

  // 6: keys with scopes (space-separated), an expiry, and the key that replaced a rolled one; the audit
  // trail, per account (null: server-wide, such as prefix imports). A grant now also reads scopes and
  // expires_at, so changing them notifies the PostgreSQL instances like a revocation does.
  (d) => `
  ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT 'lookup usage:read';
  ALTER TABLE api_keys ADD COLUMN expires_at ${INT64[d]};
  ALTER TABLE api_keys ADD COLUMN replaced_by TEXT;
  CREATE TABLE audit_events (
    id TEXT PRIMARY KEY,
    account_id TEXT REFERENCES accounts(id) ON DELETE CASCADE,
    at ${INT64[d]} NOT NULL,
    action TEXT NOT NULL,
    actor_type TEXT NOT NULL CHECK (actor_type IN ('session', 'operator', 'system')),
    actor_id TEXT,
    ip TEXT,
    user_agent TEXT,
    target TEXT
  );
  CREATE INDEX audit_events_account ON audit_events(account_id, at, id);
  CREATE INDEX audit_events_at ON audit_events(at);
  ${d === "postgres" ? POSTGRES_KEY_GRANT_TRIGGER_V6 : ""}`,

  // 7: the answers kept for Idempotency-Key replays (services/idempotent-requests.ts), one per account, route
  // and key: claimed pending before the request runs, so a duplicate on any instance sees it; the answer's
  // status, type and body once it succeeded. Rows past 24 hours are ignored and deleted.
  (d) => `
  CREATE TABLE idempotent_requests (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    route TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    created_at ${INT64[d]} NOT NULL,
    status INTEGER,
    content_type TEXT,
    body TEXT,
    PRIMARY KEY (account_id, route, idempotency_key)
  );
  CREATE INDEX idempotent_requests_created ON idempotent_requests(created_at);`,

  // 8: lookups whose issuer no source names, counted per day by the first seven digits of the ICCID only
  // (never the account digits), for `iccid-server issuers unknown`.
  (d) => `
  CREATE TABLE unknown_prefixes (
    day ${INT64[d]} NOT NULL,
    prefix TEXT NOT NULL CHECK (length(prefix) <= 7),
    count ${INT64[d]} NOT NULL,
    first_seen ${INT64[d]} NOT NULL,
    last_seen ${INT64[d]} NOT NULL,
    PRIMARY KEY (day, prefix)
  );`,

  // 9: Idempotency-Key requests keep a proof, not their answer (services/idempotent-requests.ts): a fixed-size
  // row under the hashed account, route and key, written by the request's charge in its transaction
  // (PostgreSQL: commit_charges, redefined here to take the proofs). SQLite's rows go in rowid order, which
  // is the order they expire in; PostgreSQL's heap is in that order too, which a BRIN index summarises.
  (d) => `
  DROP TABLE idempotent_requests;
  CREATE TABLE idempotency_proofs (
    key_hash ${BYTES[d]} NOT NULL ${d === "sqlite" ? "UNIQUE" : "PRIMARY KEY"},
    fingerprint ${BYTES[d]} NOT NULL,
    status SMALLINT NOT NULL,
    lookups ${INT64[d]} NOT NULL,
    created_at ${INT64[d]} NOT NULL,
    answer TEXT
  );
  ${d === "postgres" ? `CREATE INDEX idempotency_proofs_created ON idempotency_proofs USING brin (created_at);\n${POSTGRES_PROVING_COMMIT}` : ""}`,

  // 10: the usage report sums in the database (sql/usage-sql.ts). On SQLite usage_counters becomes one
  // tree in (account, key, hour) order holding the counts too: each key's bucket is then one range read
  // where it lies, with no second index to keep on every charge. PostgreSQL hashes the rows its primary
  // key finds; an index holding the counts would make every charge's counter update a non-HOT one.
  (d) => (d === "sqlite" ? SQLITE_USAGE_BY_KEY : ""),

  // 11: a throttled sign-in is recorded once per email and throttle window, with the attempts counted.
  () => "ALTER TABLE audit_events ADD COLUMN attempts INTEGER;",
];

const SQLITE_USAGE_BY_KEY = `
  CREATE TABLE usage_counters_by_key (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    bucket_start INTEGER NOT NULL,
    key_id TEXT NOT NULL,
    requests INTEGER NOT NULL,
    lookups INTEGER NOT NULL,
    PRIMARY KEY (account_id, key_id, bucket_start)
  ) WITHOUT ROWID;
  INSERT INTO usage_counters_by_key (account_id, bucket_start, key_id, requests, lookups)
    SELECT account_id, bucket_start, key_id, requests, lookups FROM usage_counters ORDER BY account_id, key_id, bucket_start;
  DROP TABLE usage_counters;
  ALTER TABLE usage_counters_by_key RENAME TO usage_counters;`;

const SQLITE_PREFIX_TRIGGERS = Object.entries({ inserted: "INSERT", updated: "UPDATE", deleted: "DELETE" })
  .map(
    ([name, event]) => `CREATE TRIGGER custom_prefixes_${name} AFTER ${event} ON custom_prefixes
    BEGIN UPDATE custom_prefix_generation SET generation = generation + 1; END;`,
  )
  .join("\n  ");

const POSTGRES_PREFIX_TRIGGER = `CREATE FUNCTION custom_prefixes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE custom_prefix_generation SET generation = generation + 1;
      RETURN NULL;
    END
  $$;
  CREATE TRIGGER custom_prefixes_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON custom_prefixes
    FOR EACH STATEMENT EXECUTE FUNCTION custom_prefixes_changed();`;

const POSTGRES_GRANT_TRIGGERS = `
  CREATE FUNCTION key_grants_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('iccid_key_grants', current_schema());
      RETURN NULL;
    END
  $$;
  CREATE TRIGGER key_grants_changed AFTER UPDATE OF revoked_at, hash, account_id OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION key_grants_changed();
  CREATE TRIGGER key_grants_changed AFTER DELETE OR TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION key_grants_changed();
  CREATE TRIGGER key_grants_changed AFTER UPDATE OR DELETE OR TRUNCATE ON subscriptions
    FOR EACH STATEMENT EXECUTE FUNCTION key_grants_changed();
  CREATE TRIGGER key_grants_changed AFTER UPDATE OR DELETE OR TRUNCATE ON plans
    FOR EACH STATEMENT EXECUTE FUNCTION key_grants_changed();`;

const POSTGRES_KEY_GRANT_TRIGGER_V6 = `
  DROP TRIGGER key_grants_changed ON api_keys;
  CREATE TRIGGER key_grants_changed AFTER UPDATE OF revoked_at, hash, account_id, scopes, expires_at OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION key_grants_changed();`;

// The charge statement: the conditional UPSERT is the quota check (ON CONFLICT DO UPDATE locks the counter
// row and re-checks the WHERE on its latest version, so charges from any instance serialise on it), and the
// usage bucket moves only when it let the charge through. It runs for each group in the order given (by
// account: rows are locked in one global order), and for each charge of a group that did not fit as a whole;
// a row per statement run, as the driver reads them. The receipt goes in last: a resolver that claimed the
// token first (a tombstone, charged NULL) makes it fail, and the whole call with it. Receipts of answers
// that arrived are deleted by a later call (p_forget).
const POSTGRES_GROUP_COMMIT = `
  CREATE TABLE charge_receipts (
    token UUID PRIMARY KEY,
    made_at BIGINT NOT NULL,
    charged BOOLEAN[],
    used BIGINT[]
  );
  CREATE FUNCTION commit_charges(
    p_token UUID, p_made_at BIGINT, p_forget UUID[],
    g_account TEXT[], g_period BIGINT[], g_limit BIGINT[], g_bucket BIGINT[], g_key TEXT[], g_lookups BIGINT[], g_size INT[],
    c_lookups BIGINT[]
  ) RETURNS TABLE (charged BOOLEAN, used BIGINT) LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      first INT := 1;
      n_lookups BIGINT;
      n_requests BIGINT;
      all_charged BOOLEAN[] := '{}';
      all_used BIGINT[] := '{}';
    BEGIN
      FOR g IN 1 .. cardinality(g_account) LOOP
        FOR k IN 0 .. g_size[g] LOOP -- 0: the group as one charge; k: its k-th charge alone
          n_lookups := CASE WHEN k = 0 THEN g_lookups[g] ELSE c_lookups[first + k - 1] END;
          n_requests := CASE WHEN k = 0 THEN g_size[g] ELSE 1 END;
          WITH quota AS (
            INSERT INTO quota_counters AS q (account_id, period_start, used)
            SELECT g_account[g], g_period[g], n_lookups WHERE n_lookups <= g_limit[g]
            ON CONFLICT (account_id, period_start) DO UPDATE SET used = q.used + excluded.used
            WHERE q.used + excluded.used <= g_limit[g]
            RETURNING q.used
          ), usage AS (
            INSERT INTO usage_counters AS u (account_id, bucket_start, key_id, requests, lookups)
            SELECT g_account[g], g_bucket[g], g_key[g], n_requests, n_lookups WHERE EXISTS (SELECT 1 FROM quota)
            ON CONFLICT (account_id, bucket_start, key_id) DO UPDATE SET
              requests = u.requests + excluded.requests, lookups = u.lookups + excluded.lookups
          )
          SELECT (SELECT quota.used FROM quota) IS NOT NULL,
                 coalesce((SELECT quota.used FROM quota),
                          (SELECT q.used FROM quota_counters q WHERE q.account_id = g_account[g] AND q.period_start = g_period[g]), 0)
          INTO charged, used;
          all_charged := all_charged || charged;
          all_used := all_used || used;
          RETURN NEXT;
          EXIT WHEN k = 0 AND (charged OR g_size[g] = 1);
        END LOOP;
        first := first + g_size[g];
      END LOOP;
      INSERT INTO charge_receipts (token, made_at, charged, used) VALUES (p_token, p_made_at, all_charged, all_used);
      DELETE FROM charge_receipts WHERE token = ANY (p_forget);
    END
  $$;`;
