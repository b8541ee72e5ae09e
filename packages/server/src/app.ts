import { createRequire } from "node:module";
import Koa from "koa";
import { pino, type Logger } from "pino";
import type { DecoderSource } from "./decode/live-decoder.js";
import { answerWriter } from "./http/answer-writer.js";
import { Connections } from "./http/connections.js";
import type { AppState } from "./http/state.js";
import { Lifecycle } from "./lifecycle.js";
import { buildOpenApi } from "./openapi.js";
import type { ServerMetrics } from "./metrics/prometheus.js";
import { AccountRateLimiter, LoginThrottle, memoryLimiters, UsageReadLimit, type LimiterFactory } from "./limits/rate-limit.js";
import type { RouteServices } from "./routes/context.js";
import { routeTable } from "./routes/router.js";
import { ROUTE_TABLE } from "./routes/table.js";
import { ApiKeys } from "./services/api-keys.js";
import { AuditTrail } from "./services/audit-trail.js";
import { IdempotentRequests } from "./services/idempotent-requests.js";
import { MemoryClaims, type InFlightClaims } from "./services/idempotent-requests.js";
import { Lookups } from "./services/lookups.js";
import { EidLookups } from "./services/eid-lookups.js";
import { EidDecoder } from "./decode/eid-decoder.js";
import { imsiDecoder } from "./decode/imsi-decoder.js";
import { Meter } from "./services/meter.js";
import { Readiness, type SharedLimits } from "./services/readiness.js";
import { Sessions } from "./services/sessions.js";
import { UnknownPrefixes } from "./services/unknown-prefixes.js";
import { UsageReport } from "./services/usage-report.js";
import { DEFAULT_SETTINGS, type ServerSettings } from "./settings.js";
import type { Store } from "./store/store.js";
import { systemClock, type Clock } from "./time.js";

export const SERVER_VERSION: string = createRequire(import.meta.url)("../package.json").version;

export interface AppDeps {
  store: Store;
  /** An IccidDecoder, or a LiveDecoder that follows the custom prefixes. */
  decoder: DecoderSource;
  clock?: Clock;
  settings?: Partial<ServerSettings>;
  logger?: Logger;
  limiterFactory?: LimiterFactory;
  /** Where requests with an Idempotency-Key hold their keys while they run: shared by the instances (Redis), or this process's. */
  claims?: InFlightClaims;
  /** With Redis limits: whether Redis answers, which readiness reports. */
  sharedLimits?: SharedLimits;
  /** Prometheus counters; without them nothing is measured (and nothing costs). */
  metrics?: ServerMetrics;
}

export interface IccidApp {
  app: Koa<AppState>;
  lifecycle: Lifecycle;
  /** The connections and the answers they send, which the server follows while it listens (one at a time, the send timeout, the unsent-bytes limit). */
  connections: Connections;
  settings: ServerSettings;
  /** The counts of lookups with no known issuer, written while the server listens and when it stops. */
  unknownPrefixes: UnknownPrefixes;
}

/** The OpenAPI document: the same for every app of this process, so built once (it converts every schema). */
let apiDocument: string | undefined;

/** Builds the Koa app from its parts; everything with state or time comes in through `deps`. */
export function createApp(deps: AppDeps): IccidApp {
  const settings = { ...DEFAULT_SETTINGS, ...deps.settings };
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? pino({ level: "silent" });
  const { store, decoder } = deps;
  const metrics = deps.metrics;
  const meter = new Meter(store, clock, metrics && ((lookups) => metrics.charged(lookups)));
  const unknownPrefixes = new UnknownPrefixes(store, clock, settings.unknownPrefixFlushMs, metrics && (() => metrics.unknownIssuer()));
  const limiters = deps.limiterFactory ?? memoryLimiters;
  const audit = new AuditTrail(store, clock, settings.auditRetentionDays);
  const services: RouteServices = {
    settings,
    store,
    decoder,
    apiKeys: new ApiKeys(store, clock, audit),
    audit,
    limiter: new AccountRateLimiter(limiters),
    usageReads: new UsageReadLimit(limiters, settings.usageReads, settings.usageReadWindowSeconds),
    lookups: new Lookups(decoder, meter, imsiDecoder(), unknownPrefixes),
    eidLookups: new EidLookups(new EidDecoder(), meter),
    idempotentRequests: new IdempotentRequests(store.idempotency, deps.claims ?? new MemoryClaims(), clock),
    usage: new UsageReport(store, clock),
    sessions: new Sessions(
      store,
      clock,
      new LoginThrottle(limiters, settings.loginAttemptsPerEmail, settings.loginAttemptsPerIp, settings.loginWindowSeconds, settings.loginEventsPerDay),
      settings.sessionIdleMs,
      settings.sessionMaxMs,
      audit,
    ),
    readiness: new Readiness(store, clock, undefined, deps.sharedLimits),
    apiDocument: (apiDocument ??= JSON.stringify(buildOpenApi(SERVER_VERSION))),
  };

  const lifecycle = new Lifecycle();
  const connections = new Connections(settings, metrics && (() => metrics.connectionDropped()));
  // ctx.ip: with a trusted proxy, the X-Forwarded-For entry `proxyHops` from the right, never the
  // client-written ones left of it (Koa's maxIpsCount keeps only the last entries).
  const app = new Koa<AppState>({ proxy: settings.trustProxy, maxIpsCount: settings.proxyHops });
  app.silent = true; // errors are answered and logged by the answer writer, never printed with stacks
  // The metrics wrap the writer, so they see the status it sent.
  if (metrics) app.use(metrics.middleware());
  app.use(answerWriter(logger, { bodyLimitBytes: settings.bodyLimitBytes, onStoreError: metrics && (() => metrics.storeError()) }));
  app.use(connections.guard());
  app.use(lifecycle.guard());
  app.use(routeTable(ROUTE_TABLE, services));
  return { app, lifecycle, connections, settings, unknownPrefixes };
}
