/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many ran. Each runs in an
 * IMMEDIATE transaction so two processes starting at once cannot both apply it.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE plans (
    name TEXT PRIMARY KEY,
    rate_limit INTEGER NOT NULL CHECK (rate_limit > 0),
    window_seconds INTEGER NOT NULL CHECK (window_seconds > 0),
    monthly_lookups INTEGER NOT NULL CHECK (monthly_lookups >= 0)
  );
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE subscriptions (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('active', 'canceled', 'past_due')),
    plan TEXT NOT NULL REFERENCES plans(name),
    period_anchor INTEGER NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT,
    prefix TEXT NOT NULL,
    last4 TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at INTEGER
  );
  CREATE INDEX api_keys_account ON api_keys(account_id, created_at);
  CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX sessions_expiry ON sessions(expires_at);
  CREATE TABLE custom_prefixes (
    prefix TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    country_iso2 TEXT
  );
  CREATE TABLE quota_counters (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    period_start INTEGER NOT NULL,
    used INTEGER NOT NULL CHECK (used >= 0),
    PRIMARY KEY (account_id, period_start)
  );
  CREATE TABLE usage_counters (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    bucket_start INTEGER NOT NULL,
    key_id TEXT NOT NULL,
    requests INTEGER NOT NULL,
    lookups INTEGER NOT NULL,
    PRIMARY KEY (account_id, bucket_start, key_id)
  );
  `,  // 2: custom prefixes apply without a restart. Every change to the table moves the generation (triggers,
  // so restores and hand edits count too); servers poll that one row and reload when it moved.
  `
  CREATE TABLE custom_prefix_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL
  );
  INSERT INTO custom_prefix_generation (id, generation) VALUES (1, 0);
  CREATE TRIGGER custom_prefixes_inserted AFTER INSERT ON custom_prefixes
    BEGIN UPDATE custom_prefix_generation SET generation = generation + 1; END;
  CREATE TRIGGER custom_prefixes_updated AFTER UPDATE ON custom_prefixes
    BEGIN UPDATE custom_prefix_generation SET generation = generation + 1; END;
  CREATE TRIGGER custom_prefixes_deleted AFTER DELETE ON custom_prefixes
    BEGIN UPDATE custom_prefix_generation SET generation = generation + 1; END;
  `,
  // The readiness probe's one row (see heartbeat.ts).
  `CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at INTEGER NOT NULL);`,
];
