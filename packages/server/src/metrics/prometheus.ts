import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Middleware } from "koa";
import type { AppState } from "../http/state.js";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/** Latency buckets in seconds: a lookup takes about a millisecond, a batch of 1000 tens of them. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * What the server counts for a Prometheus scrape, in a registry of its own (several apps can share a
 * process in tests). Requests are labelled by route pattern (`/api/v1/keys/:id`, never the raw path, so
 * label values stay few), method and status.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: "iccid_http_requests_total",
    help: "HTTP requests answered, by route, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [this.registry],
  });
  readonly #latency = new Histogram({
    name: "iccid_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by route, method and status",
    labelNames: ["route", "method", "status"] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });
  readonly #charged = new Counter({
    name: "iccid_lookups_charged_total",
    help: "Lookups charged against quotas (each distinct ICCID of a batch once)",
    registers: [this.registry],
  });
  readonly #unknownIssuer = new Counter({
    name: "iccid_lookups_unknown_issuer_total",
    help: "Lookups answered whose issuer no source names (counted by prefix for `iccid-server issuers unknown`)",
    registers: [this.registry],
  });
  readonly #storeErrors = new Counter({
    name: "iccid_store_errors_total",
    help: "Requests answered 503 because the store could not be reached or was too busy",
    registers: [this.registry],
  });

  readonly #dropped = new Counter({
    name: "iccid_http_connections_dropped_total",
    help: "Connections reset because their answer was not taken by the client within the send timeout",
    registers: [this.registry],
  });

  constructor({ processMetrics = true } = {}) {
    if (processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Counts and times every request; the route is the router's pattern, or "unmatched". */
  middleware(): Middleware<AppState> {
    return async (ctx, next) => {
      const started = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const labels = { route: ctx.state.route ?? "unmatched", method: ctx.method, status: String(ctx.status) };
        this.#requests.inc(labels);
        this.#latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      }
    };
  }

  charged(lookups: number): void {
    this.#charged.inc(lookups);
  }

  unknownIssuer(): void {
    this.#unknownIssuer.inc();
  }

  storeError(): void {
    this.#storeErrors.inc();
  }

  connectionDropped(): void {
    this.#dropped.inc();
  }
}

/** `GET /metrics` in the Prometheus text format on a port of its own, apart from the API. */
export async function serveMetrics(metrics: ServerMetrics, host: string, port: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("only GET /metrics here\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}/metrics`, server };
}
