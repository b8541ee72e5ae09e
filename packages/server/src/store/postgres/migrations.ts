/**
 * PostgreSQL schema migrations, the same tables as SQLite's with BIGINT times. Applied in order inside one
 * transaction that holds an advisory lock, so instances starting together apply each exactly once.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE plans (
    name TEXT PRIMARY KEY,
    rate_limit INTEGER NOT NULL CHECK (rate_limit > 0),
    window_seconds INTEGER NOT NULL CHECK (window_seconds > 0),
    monthly_lookups BIGINT NOT NULL CHECK (monthly_lookups >= 0)
  );
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE subscriptions (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('active', 'canceled', 'past_due')),
    plan TEXT NOT NULL REFERENCES plans(name),
    period_anchor BIGINT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT,
    prefix TEXT NOT NULL,
    last4 TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at BIGINT
  );
  CREATE INDEX api_keys_account ON api_keys(account_id, created_at);
  CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX sessions_expiry ON sessions(expires_at);
  CREATE TABLE custom_prefixes (
    prefix TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    country_iso2 TEXT
  );
  CREATE TABLE quota_counters (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    period_start BIGINT NOT NULL,
    used BIGINT NOT NULL CHECK (used >= 0),
    PRIMARY KEY (account_id, period_start)
  );
  CREATE TABLE usage_counters (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    bucket_start BIGINT NOT NULL,
    key_id TEXT NOT NULL,
    requests BIGINT NOT NULL,
    lookups BIGINT NOT NULL,
    PRIMARY KEY (account_id, bucket_start, key_id)
  );
  `,  // 2: custom prefixes apply without a restart, on every instance. Every statement that changes the table
  // moves the generation (a trigger, so restores and hand edits count too); instances poll that one row.
  `
  CREATE TABLE custom_prefix_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation BIGINT NOT NULL
  );
  INSERT INTO custom_prefix_generation (id, generation) VALUES (1, 0);
  CREATE FUNCTION custom_prefixes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE custom_prefix_generation SET generation = generation + 1;
      RETURN NULL;
    END
  $$;
  CREATE TRIGGER custom_prefixes_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON custom_prefixes
    FOR EACH STATEMENT EXECUTE FUNCTION custom_prefixes_changed();
  `,
  `CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at BIGINT NOT NULL);`,
  // 4: instances cache key grants; every change a grant depends on notifies them all (grant-notices.ts).
  // Only columns a grant reads: touching a key's last_used_at notifies nobody.
  `
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
    FOR EACH STATEMENT EXECUTE FUNCTION key_grants_changed();
  `,
];
