import { z } from "zod";
import { redactUrls } from "../auth/redacted-url.js";
import { WIRE_PARSE } from "../domain/schema-issues.js";
import { isPostgresUrl } from "../store/open.js";
import type { PgPooler } from "../store/postgres/pg-options.js";
import type { RedisTarget } from "../redis.js";

/** Settings of the `iccid-server` command: flag, then ICCID_* environment variable, then default. */
export interface CommandSettings {
  port: number;
  host: string;
  db: string;
  /** A pooler in transaction mode between the server and PostgreSQL ("transaction"), or none (direct, or session mode). */
  pgPooler: PgPooler;
  /** With pgPooler "transaction": the same database without the pooler, for LISTEN; unset means grants are polled. */
  pgDirectUrl: string | undefined;
  /** Connections in the PostgreSQL pool of each process. */
  pgPoolSize: number;
  /** Seconds a store call may take (a connection, its statements, a charge's commit) before it is answered 503. */
  queryTimeoutSeconds: number;
  trustProxy: boolean;
  /** With trustProxy: how many proxies in front append to X-Forwarded-For (the client is that many from the right). */
  proxyHops: number;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "silent";
  /** How logs look: JSON lines, readable lines, or readable on a terminal and JSON otherwise. */
  logFormat: "auto" | "json" | "pretty";
  /** Serve Prometheus metrics on this port (same host); unset means no metrics at all. */
  metricsPort: number | undefined;
  /** Redis (one, or a cluster's seed nodes) for rate limits shared by several instances; unset means in-process limits. */
  redis: RedisTarget | undefined;
  /** The start of every Redis key the server writes (`<prefix>:…`), so programs sharing one Redis keep apart. */
  redisPrefix: string;
  /** Seconds an answer may take to leave for its client before the connection is reset. */
  sendTimeoutSeconds: number;
  /** MiB of unsent answers the process holds for clients before it refuses new requests with 503. */
  unsentLimitMib: number;
  /** Audit events older than this many days are deleted. */
  auditRetentionDays: number;
}

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettingsError";
  }
}

const Port = z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535, { error: "must be 0–65535" });
const Flag = z.union([z.boolean(), z.enum(["1", "true", "yes", "0", "false", "no", ""]).transform((v) => ["1", "true", "yes"].includes(v))]);
const Hops = z.coerce.number({ error: "must be a whole number of proxies" }).int().min(1, { error: "must be at least 1" }).max(10);
const LogLevel = z.enum(["fatal", "error", "warn", "info", "debug", "silent"]);
const LogFormat = z.enum(["auto", "json", "pretty"]);
const Seconds = z.coerce.number({ error: "must be a number of seconds" }).positive({ error: "must be more than 0" }).max(3600);
const Mebibytes = z.coerce.number({ error: "must be a number of MiB" }).positive({ error: "must be more than 0" }).max(65536);
const Days = z.coerce.number({ error: "must be a whole number of days" }).int().min(1, { error: "must be at least 1" }).max(36_500);
const Connections = { error: "must be a whole number of connections" };
const PoolSize = z.coerce.number(Connections).int(Connections).min(1, { error: "must be at least 1" }).max(1000, { error: "must be at most 1000" });
const QueryTimeout = z.coerce.number({ error: "must be a number of seconds" }).min(0.1, { error: "must be at least 0.1" }).max(600, { error: "must be at most 600" });
const Pooler = z.enum(["none", "transaction"], { error: 'must be "none" or "transaction"' });
const PostgresUrl = z.string().refine(isPostgresUrl, { error: "must be a postgres:// or postgresql:// URL" });
const RedisUrls = z
  .string()
  .transform((urls) => urls.split(",").map((url) => url.trim()))
  .pipe(z.array(z.string().regex(/^rediss?:\/\/[^,\s]+$/, { error: "must be a redis:// or rediss:// URL (a cluster's: several, comma-separated)" })));
const RedisPrefix = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,100}$/, { error: "must be 1-100 letters, digits or _ . : - (no spaces)" })
  .transform((prefix) => prefix.replace(/:+$/, ""))
  .refine((prefix) => prefix !== "", { error: "must hold more than colons" });

interface Source {
  flag: string;
  env: string;
}

/** The value a setting takes, and where from: the flag, else the variable, else the default. */
function read<T>(flagValue: unknown, source: Source, env: NodeJS.ProcessEnv, fallback: T): [unknown, string] {
  return flagValue !== undefined ? [flagValue, source.flag] : env[source.env] !== undefined ? [env[source.env], source.env] : [fallback, "default"];
}

function pick<T>(schema: z.ZodType<T>, flagValue: unknown, source: Source, env: NodeJS.ProcessEnv, fallback: T): T {
  const [value, from] = read(flagValue, source, env, fallback);
  const parsed = schema.safeParse(value, WIRE_PARSE);
  // The value is echoed so the operator sees what was read, never with a URL's password.
  if (!parsed.success) throw new SettingsError(`${from}: ${parsed.error.issues[0]?.message ?? "invalid"} (got ${redactUrls(JSON.stringify(value) ?? "nothing")})`);
  return parsed.data;
}

const POOLER: Source = { flag: "--pg-pooler", env: "ICCID_PG_POOLER" };
const DIRECT_URL: Source = { flag: "--pg-direct-url", env: "ICCID_PG_DIRECT_URL" };
const POOL_SIZE: Source = { flag: "--pg-pool-size", env: "ICCID_PG_POOL_SIZE" };
const REDIS: Source = { flag: "--redis", env: "ICCID_REDIS_URL" };
const REDIS_CLUSTER: Source = { flag: "--redis-cluster", env: "ICCID_REDIS_CLUSTER" };

/** Where Redis is: one URL, or with --redis-cluster a cluster's seed nodes. */
function redisTarget(flags: Record<string, unknown>, env: NodeJS.ProcessEnv): RedisTarget | undefined {
  const urls = pick(RedisUrls.optional(), flags.redis, REDIS, env, undefined);
  const cluster = pick(Flag, flags.redisCluster, REDIS_CLUSTER, env, false);
  if (urls === undefined) {
    if (cluster) throw new SettingsError(`${read(flags.redisCluster, REDIS_CLUSTER, env, "")[1]}: only with --redis (the cluster's nodes)`);
    return undefined;
  }
  if (urls.length > 1 && !cluster) throw new SettingsError(`${read(flags.redis, REDIS, env, "")[1]}: one URL, or with --redis-cluster a cluster's nodes`);
  return { urls, cluster };
}

export function resolveSettings(flags: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): CommandSettings {
  const db = pick(z.string().min(1), flags.db, { flag: "--db", env: "ICCID_DB" }, env, "./data/iccid.db");
  const pgPooler = pick(Pooler, flags.pgPooler, POOLER, env, "none");
  const pgDirectUrl = pick(PostgresUrl.optional(), flags.pgDirectUrl, DIRECT_URL, env, undefined);
  // A pooler declared for SQLite, or a direct URL with nothing to go around, is a mistake to say, not to ignore.
  if (pgPooler !== "none" && !isPostgresUrl(db)) throw new SettingsError(`${read(flags.pgPooler, POOLER, env, "")[1]}: only with a postgres:// --db (the database is a SQLite file)`);
  if (pgDirectUrl !== undefined && pgPooler !== "transaction") {
    throw new SettingsError(`${read(flags.pgDirectUrl, DIRECT_URL, env, "")[1]}: only with --pg-pooler transaction (without a pooler, --db is direct already)`);
  }
  const pgPoolSize = pick(PoolSize, flags.pgPoolSize, POOL_SIZE, env, 10);
  const poolSizeFrom = read(flags.pgPoolSize, POOL_SIZE, env, undefined)[1];
  if (poolSizeFrom !== "default" && !isPostgresUrl(db)) throw new SettingsError(`${poolSizeFrom}: only with a postgres:// --db (the database is a SQLite file)`);
  return {
    port: pick(Port, flags.port, { flag: "--port", env: "ICCID_PORT" }, env, 8080),
    host: pick(z.string().min(1), flags.host, { flag: "--host", env: "ICCID_HOST" }, env, "127.0.0.1"),
    db,
    pgPooler,
    pgDirectUrl,
    pgPoolSize,
    queryTimeoutSeconds: pick(QueryTimeout, flags.queryTimeout, { flag: "--query-timeout", env: "ICCID_QUERY_TIMEOUT" }, env, 5),
    trustProxy: pick(Flag, flags.trustProxy, { flag: "--trust-proxy", env: "ICCID_TRUST_PROXY" }, env, false),
    proxyHops: pick(Hops, flags.proxyHops, { flag: "--proxy-hops", env: "ICCID_PROXY_HOPS" }, env, 1),
    logLevel: pick(LogLevel, flags.logLevel, { flag: "--log-level", env: "ICCID_LOG_LEVEL" }, env, "info"),
    logFormat: pick(LogFormat, flags.logFormat, { flag: "--log-format", env: "ICCID_LOG_FORMAT" }, env, "auto"),
    metricsPort: pick(Port.optional(), flags.metricsPort, { flag: "--metrics-port", env: "ICCID_METRICS_PORT" }, env, undefined),
    redis: redisTarget(flags, env),
    redisPrefix: pick(RedisPrefix, flags.redisPrefix, { flag: "--redis-prefix", env: "ICCID_REDIS_PREFIX" }, env, "iccid"),
    sendTimeoutSeconds: pick(Seconds, flags.sendTimeout, { flag: "--send-timeout", env: "ICCID_SEND_TIMEOUT" }, env, 30),
    unsentLimitMib: pick(Mebibytes, flags.unsentLimit, { flag: "--unsent-limit", env: "ICCID_UNSENT_LIMIT_MB" }, env, 64),
    auditRetentionDays: pick(Days, flags.auditRetentionDays, { flag: "--audit-retention-days", env: "ICCID_AUDIT_RETENTION_DAYS" }, env, 365),
  };
}
