import { describe, expect, it } from "vitest";
import { resolveSettings, SettingsError } from "./settings.js";

const PG = "postgres://iccid@pooler.internal:6432/iccid";
const DIRECT = "postgres://iccid@db.internal:5432/iccid";

describe("the PostgreSQL pooler settings", () => {
  it("default to no pooler and no direct URL; take the flag over the variable", () => {
    expect(resolveSettings({ db: PG }, {})).toMatchObject({ pgPooler: "none", pgDirectUrl: undefined });
    const env = { ICCID_PG_POOLER: "none", ICCID_PG_DIRECT_URL: DIRECT };
    expect(resolveSettings({ db: PG, pgPooler: "transaction" }, env)).toMatchObject({ pgPooler: "transaction", pgDirectUrl: DIRECT });
  });

  it("refuse, naming where the value came from: an unknown mode, a direct URL that is not PostgreSQL's", () => {
    expect(() => resolveSettings({ db: PG }, { ICCID_PG_POOLER: "statement" })).toThrow(new SettingsError('ICCID_PG_POOLER: must be "none" or "transaction" (got "statement")'));
    expect(() => resolveSettings({ db: PG, pgPooler: "transaction", pgDirectUrl: "db.internal:5432" }, {})).toThrow(/^--pg-direct-url: must be a postgres:\/\/ or postgresql:\/\/ URL/);
  });

  it("refuse a pooler for a SQLite file, and a direct URL without a transaction pooler to go around", () => {
    expect(() => resolveSettings({ db: "./data/iccid.db" }, { ICCID_PG_POOLER: "transaction" })).toThrow(/^ICCID_PG_POOLER: only with a postgres:\/\/ --db/);
    expect(() => resolveSettings({ db: PG, pgDirectUrl: DIRECT }, {})).toThrow(/^--pg-direct-url: only with --pg-pooler transaction/);
    expect(() => resolveSettings({ db: PG, pgPooler: "none" }, { ICCID_PG_DIRECT_URL: DIRECT })).toThrow(/^ICCID_PG_DIRECT_URL: only with --pg-pooler transaction/);
  });
});

describe("the Redis settings", () => {
  it("take one URL, or with --redis-cluster a cluster's nodes, comma-separated", () => {
    expect(resolveSettings({}, {})).toMatchObject({ redis: undefined });
    expect(resolveSettings({ redis: "redis://cache:6379" }, {})).toMatchObject({ redis: { urls: ["redis://cache:6379"], cluster: false } });
    const nodes = "redis://:pw@node-a:7000, redis://:pw@node-b:7001";
    expect(resolveSettings({}, { ICCID_REDIS_URL: nodes, ICCID_REDIS_CLUSTER: "1" })).toMatchObject({
      redis: { urls: ["redis://:pw@node-a:7000", "redis://:pw@node-b:7001"], cluster: true },
    });
  });

  it("refuse, naming where the value came from, never echoing a password: a list without the cluster setting, a cluster without nodes, a URL that is not Redis's", () => {
    expect(() => resolveSettings({ redis: "redis://a:7000,redis://b:7001" }, {})).toThrow(new SettingsError("--redis: one URL, or with --redis-cluster a cluster's nodes"));
    expect(() => resolveSettings({}, { ICCID_REDIS_CLUSTER: "yes" })).toThrow(new SettingsError("ICCID_REDIS_CLUSTER: only with --redis (the cluster's nodes)"));
    expect(() => resolveSettings({ redis: "cache:6379", redisCluster: true }, {})).toThrow(/^--redis: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => resolveSettings({ redis: "http://:s3cret@cache:6379" }, {})).toThrow(/\(got "http:\/\/:\*\*\*@cache:6379"\)$/);
  });
});

describe("the query timeout and the pool size", () => {
  it("default to 5 s and 10 connections; take the flag over the variable", () => {
    expect(resolveSettings({ db: PG }, {})).toMatchObject({ queryTimeoutSeconds: 5, pgPoolSize: 10 });
    const env = { ICCID_QUERY_TIMEOUT: "2.5", ICCID_PG_POOL_SIZE: "4" };
    expect(resolveSettings({ db: PG }, env)).toMatchObject({ queryTimeoutSeconds: 2.5, pgPoolSize: 4 });
    expect(resolveSettings({ db: PG, queryTimeout: "1", pgPoolSize: "20" }, env)).toMatchObject({ queryTimeoutSeconds: 1, pgPoolSize: 20 });
    expect(resolveSettings({ db: "./data/iccid.db" }, { ICCID_QUERY_TIMEOUT: "3" })).toMatchObject({ queryTimeoutSeconds: 3 });
  });

  it("refuse, naming where the value came from: no number, out of range, a pool for a SQLite file", () => {
    expect(() => resolveSettings({ db: PG, queryTimeout: "soon" }, {})).toThrow(new SettingsError('--query-timeout: must be a number of seconds (got "soon")'));
    expect(() => resolveSettings({ db: PG }, { ICCID_QUERY_TIMEOUT: "0" })).toThrow(/^ICCID_QUERY_TIMEOUT: must be at least 0.1/);
    expect(() => resolveSettings({ db: PG, queryTimeout: "601" }, {})).toThrow(/^--query-timeout: must be at most 600/);
    expect(() => resolveSettings({ db: PG, pgPoolSize: "2.5" }, {})).toThrow(/^--pg-pool-size: must be a whole number of connections/);
    expect(() => resolveSettings({ db: PG }, { ICCID_PG_POOL_SIZE: "0" })).toThrow(/^ICCID_PG_POOL_SIZE: must be at least 1/);
    expect(() => resolveSettings({ db: "./data/iccid.db", pgPoolSize: "4" }, {})).toThrow(/^--pg-pool-size: only with a postgres:\/\/ --db/);
  });
});
