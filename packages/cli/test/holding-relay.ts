import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP relay in front of a test server that can hold the server's answers: requests go through at once
 * (the server handles and charges them), the answers wait until `release()`. What a slow network does to
 * a client, made exact: a test knows the server charged a request whose answer the client has not got.
 */
export class HoldingRelay {
  private holding = true;
  private readonly held: (() => void)[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(targetUrl: string): Promise<HoldingRelay> {
    const target = new URL(targetUrl);
    const server = createServer();
    const relay = new HoldingRelay(server);
    server.on("connection", (client) => relay.relay(client, target.hostname, Number(target.port)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return relay;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private relay(client: Socket, host: string, port: number): void {
    const upstream = createConnection({ host, port });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (data: Buffer) => upstream.write(data));
    upstream.on("data", (data: Buffer) => {
      if (this.holding) this.held.push(() => client.write(data));
      else client.write(data);
    });
  }

  /** Lets every held answer through, and the ones to come. */
  release(): void {
    this.holding = false;
    for (const send of this.held.splice(0)) send();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
