import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP relay in front of PostgreSQL that a test can cut: `cut()` drops every relayed connection at once
 * (what a failed network path or a database restart does to a client), `refuse(true)` turns new
 * connections away until `refuse(false)` (the database being down for a while), and `cutAt` drops the
 * connection at one exact point of a conversation.
 */
export class TcpRelay {
  readonly #pairs = new Set<[Socket, Socket]>();
  #refusing = false;
  #trap: { marker: string; when: "before" | "after"; thenDown: boolean } | undefined;
  cuts = 0;
  /** How many armed cuts (`cutAt`) have happened: a test checks its fault was really injected. */
  trapsSprung = 0;

  private constructor(readonly server: Server) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpRelay> {
    const server = createServer();
    const relay = new TcpRelay(server);
    server.on("connection", (client) => relay.#relay(client, targetHost, targetPort));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return relay;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  #relay(client: Socket, host: string, port: number): void {
    if (this.#refusing) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host, port });
    const pair: [Socket, Socket] = [client, upstream];
    this.#pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.#pairs.delete(pair);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    // The trapped bytes went up: the next answer is dropped with the connection ("drop"), or with every
    // connection and new ones refused ("down").
    let armed: false | "drop" | "down" = false;
    client.on("data", (data: Buffer) => {
      const trap = this.#trap;
      if (trap && data.includes(trap.marker)) {
        this.#trap = undefined;
        this.trapsSprung++;
        if (trap.when === "before") return trap.thenDown ? this.#goDown() : drop();
        armed = trap.thenDown ? "down" : "drop";
      }
      upstream.write(data);
    });
    upstream.on("data", (data: Buffer) => (armed === "down" ? this.#goDown() : armed ? drop() : client.write(data)));
  }

  /**
   * Arms a one-shot cut at the first client message containing `marker`: "before" it reaches the
   * server, or "after" the server got it but before its answer reaches the client. `thenDown`: the
   * cut drops every connection and refuses new ones until `refuse(false)`.
   */
  cutAt(marker: string, when: "before" | "after", { thenDown = false } = {}): void {
    this.#trap = { marker, when, thenDown };
  }

  /** With `thenDown`: the cut drops every connection and refuses new ones, as if the database went down then. */
  #goDown(): void {
    this.#refusing = true;
    this.cut();
  }

  /** Drops every connection now: both ends see a reset. */
  cut(): number {
    const n = this.#pairs.size;
    for (const [client, upstream] of this.#pairs) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    this.#pairs.clear();
    this.cuts++;
    return n;
  }

  refuse(refusing: boolean): void {
    this.#refusing = refusing;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
