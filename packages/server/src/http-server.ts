import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { IccidApp } from "./app.js";
import type { Store } from "./store/store.js";

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Graceful stop: refuse new requests with 503, finish in-flight ones, close the port, then the store. */
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  store: Store;
  logger?: Logger;
  /** After this long, connections still open are cut. */
  drainTimeoutMs?: number;
}

export async function listen({ app, lifecycle }: IccidApp, options: ListenOptions): Promise<RunningServer> {
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      lifecycle.draining = true;
      options.logger?.info("draining");
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections that finish their request while draining become idle: close them as they do.
      const sweeper = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => server.closeAllConnections(), options.drainTimeoutMs ?? 10_000);
      server.closeIdleConnections();
      await closed;
      clearInterval(sweeper);
      clearTimeout(deadline);
      await options.store.close();
      options.logger?.info("stopped");
    })());

  return { url: `http://${host}:${port}`, port, server, close };
}
