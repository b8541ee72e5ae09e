// The bench's load generator: keep-alive HTTP/1.1 connections that send one prepared POST after another,
// one in flight per connection, and read each answer no further than its status and length. It is light,
// so the server measured is what limits the pace; it keeps its connections from one round to the next, so
// a round is just its requests (no connection set-up, no start-up tick: autocannon, used before, took
// at least a second for any round, and opened new connections each time).
import { connect } from "node:net";

const HEAD_END = "\r\n\r\n";

/**
 * One keep-alive connection: `send(request)` writes it and resolves with the answer's status once the whole
 * answer has arrived. `open` turns false when the connection closes (a server closes one left idle past its
 * keep-alive timeout).
 */
class Connection {
  open = true;
  #socket;
  #pending = null;
  #buffered = Buffer.alloc(0);
  #bodyLeft = -1;
  #status = 0;

  constructor(host, port) {
    this.#socket = connect({ host, port, noDelay: true });
    this.#socket.on("data", (chunk) => this.#read(chunk));
    this.#socket.on("error", (error) => this.#fail(error));
    this.#socket.on("close", () => {
      this.open = false;
      this.#fail(new Error("the server closed the connection"));
    });
  }

  send(request) {
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket.write(request);
    });
  }

  close() {
    this.#socket.removeAllListeners("close");
    this.#socket.destroy();
  }

  #read(chunk) {
    if (this.#bodyLeft < 0) {
      this.#buffered = this.#buffered.length ? Buffer.concat([this.#buffered, chunk]) : chunk;
      const end = this.#buffered.indexOf(HEAD_END);
      if (end < 0) return;
      const head = this.#buffered.toString("latin1", 0, end);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!length) return this.#fail(new Error(`an answer without Content-Length: ${head.slice(0, 200)}`));
      this.#status = Number(head.slice(9, 12));
      this.#bodyLeft = Number(length[1]);
      chunk = this.#buffered.subarray(end + HEAD_END.length);
      this.#buffered = Buffer.alloc(0);
    }
    this.#bodyLeft -= chunk.length;
    if (this.#bodyLeft > 0) return;
    if (this.#bodyLeft < 0) return this.#fail(new Error("more bytes than one answer: the bench sends one request at a time"));
    this.#bodyLeft = -1;
    const pending = this.#pending;
    this.#pending = null;
    pending?.resolve(this.#status);
  }

  #fail(error) {
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(error);
  }
}

/**
 * A load generator for the server at `url`, sending as API key `key`. `post({ path, body, connections,
 * amount })` sends `amount` POSTs with `connections` in flight and resolves with the requests per second;
 * any answer but 200 rejects. Connections are opened as needed, and again when the server closed them, and
 * kept until `close()`.
 */
export function httpLoad(url, key) {
  const { hostname, port } = new URL(url);
  const connections = [];
  const requests = new Map();
  const requestFor = (path, body) => {
    const id = `${path}\n${body}`;
    let request = requests.get(id);
    if (!request) {
      const bytes = Buffer.from(body);
      const head =
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
        `${key ? `Authorization: Bearer ${key}\r\n` : ""}Content-Length: ${bytes.length}\r\n\r\n`;
      requests.set(id, (request = Buffer.concat([Buffer.from(head, "latin1"), bytes])));
    }
    return request;
  };
  return {
    async post({ path, body, connections: inFlight, amount }) {
      const request = requestFor(path, body);
      for (let i = 0; i < inFlight; i++) if (!connections[i]?.open) connections[i] = new Connection(hostname, Number(port));
      let sent = 0;
      const started = performance.now();
      const worker = async (connection) => {
        while (sent < amount) {
          sent++;
          const status = await connection.send(request);
          if (status !== 200) throw new Error(`${url}${path}: answered ${status}`);
        }
      };
      await Promise.all(connections.slice(0, inFlight).map(worker));
      return amount / ((performance.now() - started) / 1000);
    },
    close() {
      for (const connection of connections) connection.close();
    },
  };
}
