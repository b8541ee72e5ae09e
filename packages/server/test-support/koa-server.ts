import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type Koa from "koa";

/** A Koa app served on an ephemeral port of 127.0.0.1: its base URL, and `close` to stop it. */
export async function serveKoa<S, C>(app: Koa<S, C>): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
