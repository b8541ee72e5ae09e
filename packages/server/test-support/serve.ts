import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request listener (a Koa app's `callback()`, or a bare one) served on an ephemeral port of 127.0.0.1. */
export async function serve(listener: RequestListener): Promise<{ server: Server; base: string; port: number; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
