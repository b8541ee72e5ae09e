import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { IccidApp } from "./app.js";
import type { Store } from "./store/store.js";

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Graceful stop: answer new requests 503 while in-flight ones finish, then close the port, then the store. */
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

export async function listen({ app, lifecycle, connections, unknownPrefixes }: IccidApp, options: ListenOptions): Promise<RunningServer> {
  // One request at a time per connection (connections.ts); a request the parser refuses is answered after the one in flight.
  const listener = connections.listener(app.callback());
  // A request without Host is the app's to refuse (connections.ts), with a problem body and a request id.
  // Timeouts are checked twice a second, so each is kept within a second of its value (Node's default
  // check, every 30 s, let a 10 s header timeout run to 30 s).
  const server = createServer({ requireHostHeader: false, connectionsCheckingInterval: 500 }, listener);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.on("clientError", connections.clientError);
  // An Expect other than 100-continue goes to the app too, which refuses it the same way.
  server.on("checkExpectation", listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  // The answers being sent are looked at from now on.
  connections.start();
  unknownPrefixes.start();
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      lifecycle.draining = true;
      options.logger?.info("draining");
      // Lame duck: the port stays open, answering 503 to new requests (so a load balancer moves on), until
      // the requests in flight are done: answered, or their client gone (nobody waits for those answers;
      // one that is never read is cut by the send timeout). Then it closes.
      const drainUntil = Date.now() + (options.drainTimeoutMs ?? 10_000);
      const busy = () => connections.inFlight > 0 || lifecycle.handling > 0;
      while (busy() && Date.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 10));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections that finish their request while draining become idle: close them as they do.
      const sweeper = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => server.closeAllConnections(), Math.max(0, drainUntil - Date.now()));
      server.closeIdleConnections();
      await closed;
      clearInterval(sweeper);
      clearTimeout(deadline);
      connections.stop();
      await unknownPrefixes.stop().catch((error: unknown) => options.logger?.error({ err: error }, "unknown-prefix counts not written"));
      await options.store.close();
      options.logger?.info("stopped");
    })());

  return { url: `http://${host}:${port}`, port, server, close };
}
