import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SubscriptionStatus } from "@iccid/core";
import { pino } from "pino";
import { createApp } from "../src/app.js";
import { loadDecoder } from "../src/decode/load.js";
import { listen } from "../src/http-server.js";
import { redisLimiters } from "../src/limits/redis-limiters.js";
import { connectRedis, redisReady } from "../src/redis.js";
import type { InFlightClaims } from "../src/services/idempotent-requests.js";
import { RedisClaims } from "../src/services/redis-claims.js";
import type { ServerMetrics } from "../src/metrics/prometheus.js";
import { Accounts } from "../src/services/accounts.js";
import { ApiKeys } from "../src/services/api-keys.js";
import { DEFAULT_PLAN, type ServerSettings } from "../src/settings.js";
import { holdPgCharges, holdSqliteCharges, type ReleaseCharges } from "./held-charges.js";
import { createTestSchema, type TestSchema } from "./postgres.js";
import { PgStore } from "../src/store/postgres/pg-store.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Plan, Store } from "../src/store/store.js";
import { systemClock, type Clock } from "../src/time.js";

export {
  killServerProcesses,
  ownerCredentials,
  SERVER_BIN,
  serverCommand,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
  type StartOptions,
} from "./server-process.js";
export { createTestDatabase, createTestSchema, type TestDatabase, type TestSchema } from "./postgres.js";
export { TcpRelay } from "./tcp-relay.js";
export { PgWireWatch, type SentStatement } from "./pg-wire-watch.js";
export { killPgBouncers, startPgBouncer, type PgBouncer } from "./pgbouncer.js";
export { onPort } from "./free-port.js";
export { onTerminal, shellQuote } from "./terminal.js";
export { damageTablePage } from "./damage.js";
export { killRedisServers, startRedisServer, type RedisServer } from "./redis-server.js";
export { startRedisCluster, type RedisCluster } from "./redis-cluster.js";
export { exchange, neverReading, rawJsonPost, responses, splitResponses, type RawResponse } from "./raw-http.js";

// A real server for tests of this and other packages: real HTTP on an ephemeral loopback port, on a real
// SQLite file in a temp dir — or, when ICCID_TEST_STORE=postgres, on a fresh schema of the PostgreSQL at
// ICCID_TEST_POSTGRES_URL with rate limits in the Redis at ICCID_TEST_REDIS_URL (when set).

export interface TestServerOptions {
  /** Limits of the default plan "standard". */
  plan?: Partial<Omit<Plan, "name">>;
  bodyLimitBytes?: number;
  clock?: Clock;
  settings?: Partial<ServerSettings>;
  /** How often the server rechecks the custom prefixes (default CUSTOM_PREFIX_RECHECK_MS). */
  recheckMs?: number;
  /** Where the server writes its JSON log lines (default: nowhere). */
  logTo?: NodeJS.WritableStream;
  /** Prometheus counters the server fills (default: none). */
  metrics?: ServerMetrics;
}

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  apiKey: string;
  keyId: string;
}

export interface TestServer {
  url: string;
  /** "sqlite" or "postgres": which store this server runs on. */
  storeKind: "sqlite" | "postgres";
  store: Store;
  owner: TestAccount;
  createAccount(opts?: { email?: string; password?: string; status?: SubscriptionStatus; plan?: string }): Promise<TestAccount>;
  setSubscription(email: string, status: SubscriptionStatus): Promise<void>;
  setPlan(name: string, limits: Omit<Plan, "name">): Promise<void>;
  /**
   * Makes every charge wait, from another connection to the store, until the release is called. On SQLite
   * it holds every write (the file's one write lock): idempotency claims, keys' last-used times, sessions
   * too. On PostgreSQL it holds the quota counters only.
   */
  holdCharges(): Promise<ReleaseCharges>;
  close(): Promise<void>;
}

let accountCounter = 0;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = options.clock ?? systemClock;
  const backing = await openTestStore();
  const { store } = backing;
  await store.migrate();
  const defaultPlan = { ...DEFAULT_PLAN, ...options.plan };
  await store.upsertPlan(defaultPlan);
  const decoder = await loadDecoder(store, options.recheckMs ? { recheckMs: options.recheckMs } : {});
  const iccidApp = createApp({
    store,
    clock,
    ...(options.logTo ? { logger: pino({ level: "info" }, options.logTo) } : {}),
    decoder,
    settings: { ...(options.bodyLimitBytes ? { bodyLimitBytes: options.bodyLimitBytes } : {}), ...options.settings },
    ...(backing.limiters ? { limiterFactory: backing.limiters } : {}),
    ...(backing.claims ? { claims: backing.claims } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const running = await listen(iccidApp, { host: "127.0.0.1", port: 0, store, drainTimeoutMs: 2_000 });
  const accounts = new Accounts(store, clock);
  const apiKeys = new ApiKeys(store, clock);

  const createAccount: TestServer["createAccount"] = async (opts = {}) => {
    const email = opts.email ?? `user${++accountCounter}-${process.pid}@example.test`;
    const password = opts.password ?? `pw-${Math.random().toString(36).slice(2)}-long-enough`;
    const account = await accounts.create({ email, password, plan: opts.plan ?? defaultPlan.name, status: opts.status ?? "active" });
    const key = await apiKeys.create(account.id, "test");
    return { id: account.id, email: account.email, password, apiKey: key.key, keyId: key.id };
  };

  return {
    url: running.url,
    storeKind: backing.kind,
    store,
    owner: await createAccount({ email: "owner@example.test" }),
    createAccount,
    async setSubscription(email, status) {
      await store.setSubscription((await accounts.byEmail(email)).id, { status });
    },
    async setPlan(name, limits) {
      await store.upsertPlan({ name, ...limits });
    },
    holdCharges: backing.holdCharges,
    async close() {
      decoder.close();
      await running.close();
      await backing.dispose();
    },
  };
}

/** A store for one test, without a server: SQLite in a temp folder, or (ICCID_TEST_STORE=postgres) a schema of its own. */
export interface TestBacking {
  kind: "sqlite" | "postgres";
  store: Store;
  limiters?: ReturnType<typeof redisLimiters>;
  /** With Redis: the Idempotency-Key claims every instance on this store shares. */
  claims?: InFlightClaims;
  holdCharges(): Promise<ReleaseCharges>;
  dispose(): Promise<void>;
}

export async function openTestStore(): Promise<TestBacking> {
  if (process.env.ICCID_TEST_STORE !== "postgres") {
    const dir = mkdtempSync(join(tmpdir(), "iccid-test-"));
    const path = join(dir, "iccid.db");
    return {
      kind: "sqlite",
      store: new SqliteStore(path),
      holdCharges: async () => holdSqliteCharges(path),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = process.env.ICCID_TEST_POSTGRES_URL;
  if (!url) throw new Error("ICCID_TEST_STORE=postgres needs ICCID_TEST_POSTGRES_URL");
  const schema: TestSchema = await createTestSchema(url);
  const redisUrl = process.env.ICCID_TEST_REDIS_URL;
  const redis = redisUrl ? connectRedis(redisUrl) : undefined;
  if (redis && !(await redisReady(redis))) throw new Error(`Redis at ${redisUrl} is not reachable`);
  return {
    kind: "postgres",
    store: new PgStore(url, { schema: schema.name }),
    ...(redis ? { limiters: redisLimiters(redis, `iccid-test:${schema.name}`), claims: new RedisClaims(redis, `iccid-test:${schema.name}`) } : {}),
    holdCharges: () => holdPgCharges(url, schema.name),
    async dispose() {
      await redis?.quit();
      await schema.drop();
    },
  };
}
