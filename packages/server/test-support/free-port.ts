import { once } from "node:events";
import { createServer } from "node:net";

/** A TCP port of 127.0.0.1 nothing listens on right now, for a helper process of a test to take. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `url` with its host and port replaced by 127.0.0.1 and `port`: the same user, password and database. */
export function onPort(url: string, port: number): string {
  const moved = new URL(url);
  moved.hostname = "127.0.0.1";
  moved.port = String(port);
  return moved.href;
}
