import { Command, Option } from "commander";
import { createApp } from "../../app.js";
import { loadDecoder } from "../../decode/load.js";
import { listen } from "../../http-server.js";
import { redactUrls } from "../../auth/redacted-url.js";
import { RedisClaims } from "../../services/redis-claims.js";
import { redisLimiters } from "../../limits/redis-limiters.js";
import { connectRedis, redisReady } from "../../redis.js";
import { checkRedis } from "../../redis-checks.js";
import { RedisHealth } from "../../redis-health.js";
import { ServerMetrics, serveMetrics } from "../../metrics/prometheus.js";
import { DEFAULT_PLAN } from "../../settings.js";
import { isPostgresUrl } from "../../store/open.js";
import { ServerLock } from "../../store/sqlite/server-lock.js";
import { systemClock } from "../../time.js";
import { bootstrapOwner, type OwnerCredentials } from "../bootstrap.js";
import { commandLogger } from "../logger.js";
import { resolveSettings } from "../settings.js";
import { openMigrated } from "../store-access.js";

export function startCommand(): Command {
  return new Command("start")
    .description("migrate, then serve; SIGTERM/SIGINT stop gracefully")
    .option("--port <n>", "port (env ICCID_PORT, default 8080)")
    .option("--host <host>", "address to bind (env ICCID_HOST, default 127.0.0.1)")
    .option("--trust-proxy", "trust X-Forwarded-* from a reverse proxy (env ICCID_TRUST_PROXY)")
    .option("--proxy-hops <n>", "with --trust-proxy: proxies that append to X-Forwarded-For (env ICCID_PROXY_HOPS, default 1)")
    .option("--metrics-port <n>", "serve Prometheus metrics at GET /metrics on this port of the same host (env ICCID_METRICS_PORT; default: off)")
    .option("--redis <url>", "share rate limits across instances through Redis (env ICCID_REDIS_URL; a cluster's nodes comma-separated)")
    .option("--redis-cluster", "--redis names a Redis Cluster (env ICCID_REDIS_CLUSTER)")
    .option("--redis-prefix <prefix>", "start of every Redis key the server writes (env ICCID_REDIS_PREFIX, default iccid)")
    .option("--send-timeout <seconds>", "reset a connection whose answer has not left for its client after this long (env ICCID_SEND_TIMEOUT, default 30)")
    .option("--unsent-limit <MiB>", "answer 503 while unsent answers hold more than this (env ICCID_UNSENT_LIMIT_MB, default 64)")
    .option("--audit-retention-days <days>", "delete audit events older than this (env ICCID_AUDIT_RETENTION_DAYS, default 365)")
    .addOption(new Option("--log-level <level>", "env ICCID_LOG_LEVEL, default info").choices(["fatal", "error", "warn", "info", "debug", "silent"]))
    .addOption(new Option("--log-format <format>", "readable on a terminal, JSON lines otherwise (env ICCID_LOG_FORMAT, default auto)").choices(["auto", "json", "pretty"]))
    .action(async (_opts, command: Command) => {
      const settings = resolveSettings(command.optsWithGlobals());
      const logger = commandLogger(settings);
      // One serving process per SQLite file (its rate limits live in memory); held until the process ends.
      const lock = isPostgresUrl(settings.db) || settings.db === ":memory:" ? undefined : ServerLock.take(settings.db);
      // A Redis setting that cannot work ends the start here; a Redis that is down is an outage to start through.
      const redisAtStart = settings.redis && (await checkRedis(settings.redis));
      if (redisAtStart && redisAtStart.answering && !redisAtStart.persistent) {
        logger.warn("redis keeps no append-only file: when it restarts, every account's rate-limit window starts afresh (appendonly yes keeps them)");
      }
      const store = await openMigrated(command.optsWithGlobals(), {
        create: true,
        checkIntegrity: true,
        // One line per migration applied, after they all committed (they are one transaction).
        onMigrated: ({ from, to }) => {
          for (let version = from; version < to; version++) logger.info({ from_version: version, to_version: version + 1 }, "schema migrated");
        },
      });
      const redis = settings.redis && connectRedis(settings.redis);
      redis?.on("error", (error: Error & { code?: string }) => logger.debug({ err: { code: error.code, message: error.message } }, "redis error"));
      const redisHealth = redis && new RedisHealth(redis, logger, settings.redis!.cluster);
      // Serving starts once Redis answers, or after a short wait without it (RedisHealth logs the outage).
      if (redis) await redisReady(redis);
      const decoder = await loadDecoder(store, {
        onError: (error) => logger.warn({ err: { message: (error as Error).message } }, "custom prefixes not rechecked"),
      });
      const metrics = settings.metricsPort === undefined ? undefined : new ServerMetrics();
      const iccidApp = createApp({
        store,
        logger,
        decoder,
        settings: {
          trustProxy: settings.trustProxy,
          proxyHops: settings.proxyHops,
          sendTimeoutMs: settings.sendTimeoutSeconds * 1000,
          unsentLimitBytes: Math.round(settings.unsentLimitMib * 1024 * 1024),
          auditRetentionDays: settings.auditRetentionDays,
        },
        ...(redis && redisHealth
          ? { limiterFactory: redisLimiters(redis, settings.redisPrefix, redisHealth), sharedLimits: redisHealth, claims: new RedisClaims(redis, settings.redisPrefix, redisHealth) }
          : {}),
        ...(metrics ? { metrics } : {}),
      });
      const scrape = metrics && (await serveMetrics(metrics, settings.host, settings.metricsPort!));
      const running = await listen(iccidApp, { host: settings.host, port: settings.port, store, logger }).catch((error: unknown) => {
        throw portRefusal(error, settings.host, settings.port);
      });
      // The owner is made only once the server listens: a start that fails before (a busy port) leaves the
      // database without accounts, so the next start makes the owner and prints the banner.
      const plan = (await store.getPlan(DEFAULT_PLAN.name))!;
      const owner = await bootstrapOwner(store, systemClock, plan, process.env.ICCID_OWNER_EMAIL ?? "owner@localhost");
      let stopping = false;
      const stop = (signal: string) => {
        // A Ctrl-C reaches the whole process group and `npm start` forwards it too: a second signal while
        // draining must not end the process with requests still in flight.
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, "stopping");
        scrape?.server.close();
        decoder.close();
        running.close().then(
          async () => {
            await redis?.quit().catch(() => {});
            lock?.release();
            process.exit(0);
          },
          () => process.exit(1),
        );
      };
      process.on("SIGTERM", () => stop("SIGTERM"));
      process.on("SIGINT", () => stop("SIGINT"));
      if (owner) printOwner(owner, running.url);
      // Announced only once a stop is handled gracefully: whoever waits for this line may signal at once.
      // Every URL shown goes through redactUrls: a password in --db or --redis is never logged or printed.
      const db = redactUrls(settings.db);
      const shared = settings.redis ? { redis: redactUrls(settings.redis.urls.join(",")), ...(settings.redis.cluster ? { redis_cluster: true } : {}), redis_prefix: settings.redisPrefix } : {};
      // Behind a transaction pooler: whether grant changes are heard (LISTEN on the direct URL) or polled.
      const pooler = settings.pgPooler === "none" ? {} : { pg_pooler: settings.pgPooler, grant_changes: settings.pgDirectUrl ? redactUrls(settings.pgDirectUrl) : "polled" };
      logger.info({ url: running.url, db, ...pooler, ...shared, data_version: decoder.current.dataVersion, ...(scrape ? { metrics: scrape.url } : {}) }, "listening");
      process.stderr.write(`ICCID Lookup is serving ${running.url} (database ${db}); account page ${running.url}/account\n`);
      // The CLI and the SDK look on the default address unless told: say how to point them here.
      if (running.url !== CLIENT_DEFAULT_URL) process.stderr.write(`For the iccid CLI and the SDK:  export ICCID_BASE_URL=${running.url}\n`);
    });
}

/** A port that cannot be listened on, in words that name it and the way out. */
function portRefusal(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: string }).code;
  if (code === "EADDRINUSE") return new Error(`port ${port} on ${host} is in use by another process: stop it, or choose another with --port or ICCID_PORT`);
  if (code === "EACCES") return new Error(`port ${port} on ${host} needs privileges this process lacks: choose one above 1023 with --port or ICCID_PORT`);
  return error;
}

/** Where the iccid CLI and the SDK look for a server when ICCID_BASE_URL is not set. */
const CLIENT_DEFAULT_URL = "http://127.0.0.1:8080";

/** Shown once, on the terminal, never through the logger: these are the only copies. */
function printOwner(owner: OwnerCredentials, url: string): void {
  process.stderr.write(
    [
      "",
      "First start: created the owner account. Save these now; they are not shown again.",
      `  email:    ${owner.email}`,
      `  password: ${owner.password}`,
      `  API key:  ${owner.apiKey}`,
      "",
      `Try it:  curl -s ${url}/api/v1/iccid/lookup -H "Authorization: Bearer ${owner.apiKey}" \\`,
      `           -H "Content-Type: application/json" -d '{"iccid":"89441000000000000018"}'`,
      "",
    ].join("\n"),
  );
}
