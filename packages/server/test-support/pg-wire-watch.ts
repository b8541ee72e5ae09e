import { createConnection, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { onPort } from "./free-port.js";

/** A statement a client sent: a Parse (extended protocol; `name` "" is the unnamed statement) or a simple Query. */
export interface SentStatement {
  kind: "parse" | "query";
  name: string;
  text: string;
}

const SSL_REQUEST = 80877103;

/**
 * A TCP relay in front of PostgreSQL that reads what its clients send, message by message (the frontend
 * protocol: an untyped startup message, then a type byte and a length per message), and keeps every
 * statement: what a pooler in between would be asked to do.
 */
export class PgWireWatch {
  readonly statements: SentStatement[] = [];
  readonly #sockets = new Set<Socket>();

  private constructor(readonly server: Server) {}

  static async start(targetHost: string, targetPort: number): Promise<PgWireWatch> {
    const server = createServer();
    const watch = new PgWireWatch(server);
    server.on("connection", (client) => watch.#relay(client, targetHost, targetPort));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return watch;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `target` with its host and port replaced by the watch's. */
  url(target: string): string {
    return onPort(target, this.port);
  }

  #relay(client: Socket, host: string, port: number): void {
    const upstream = createConnection({ host, port });
    for (const socket of [client, upstream]) this.#sockets.add(socket);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.#sockets.delete(client);
      this.#sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    upstream.on("data", (data: Buffer) => client.write(data));
    let pending = Buffer.alloc(0);
    let started = false;
    client.on("data", (data: Buffer) => {
      upstream.write(data);
      pending = Buffer.concat([pending, data]);
      for (;;) {
        if (!started) {
          if (pending.length < 8) return;
          const length = pending.readInt32BE(0);
          if (pending.length < length) return;
          started = pending.readInt32BE(4) !== SSL_REQUEST;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) return;
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) return;
        this.#read(String.fromCharCode(pending[0]!), pending.subarray(5, 1 + length));
        pending = pending.subarray(1 + length);
      }
    });
  }

  #read(type: string, body: Buffer): void {
    const strings = body.toString("utf8").split("\0");
    if (type === "P") this.statements.push({ kind: "parse", name: strings[0]!, text: strings[1]! });
    if (type === "Q") this.statements.push({ kind: "query", name: "", text: strings[0]! });
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
