// The bench's load generator: keep-alive HTTP/1.1 connections that send one prepared POST after another,
// one in flight per connection, and read each answer no further than its status and where it ends. It is
// light, so the server measured is what limits the pace; it keeps its connections from one round to the
// next, so a round is just its requests (no connection set-up).
import { connect } from "node:net";

const HEAD_END = "\r\n\r\n";
const LAST_CHUNK = Buffer.from("0\r\n\r\n");

/**
 * Servers close a connection left idle past their keep-alive timeout (5 s for Node's and the builds'), and
 * a request written as the close arrives is lost: a connection idle for longer than this is not used again.
 */
const IDLE_MS = 2_000;

/**
 * One keep-alive connection: `send(request)` writes it and resolves with the answer's status once the whole
 * answer has arrived (by its Content-Length, or its last chunk). `usable` says whether it is open and has
 * not been idle for long.
 */
class Connection {
  #open = true;
  #idleSince = performance.now();
  #socket;
  #pending = null;
  #buffered = Buffer.alloc(0);
  #bodyLeft = -1;
  #chunked = false;
  #status = 0;

  constructor(host, port) {
    this.#socket = connect({ host, port, noDelay: true });
    this.#socket.on("data", (chunk) => this.#read(chunk));
    this.#socket.on("error", (error) => this.#fail(error));
    this.#socket.on("close", () => {
      this.#open = false;
      this.#fail(new Error("the server closed the connection"));
    });
  }

  get usable() {
    return this.#open && performance.now() - this.#idleSince < IDLE_MS;
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
    if (this.#bodyLeft < 0 && !this.#chunked) {
      this.#buffered = this.#buffered.length ? Buffer.concat([this.#buffered, chunk]) : chunk;
      const end = this.#buffered.indexOf(HEAD_END);
      if (end < 0) return;
      const head = this.#buffered.toString("latin1", 0, end);
      this.#status = Number(head.slice(9, 12));
      chunk = this.#buffered.subarray(end + HEAD_END.length);
      this.#buffered = Buffer.alloc(0);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (length) this.#bodyLeft = Number(length[1]);
      else if (/\r\ntransfer-encoding: *chunked/i.test(head)) this.#chunked = true;
      else return this.#fail(new Error(`an answer with neither Content-Length nor chunks: ${head.slice(0, 200)}`));
    }
    if (this.#chunked) {
      // One request at a time: the answer ends where the bytes received so far end with the last chunk.
      this.#buffered = Buffer.concat([this.#buffered.subarray(-LAST_CHUNK.length), chunk]);
      if (!this.#buffered.subarray(-LAST_CHUNK.length).equals(LAST_CHUNK)) return;
      this.#chunked = false;
      this.#buffered = Buffer.alloc(0);
      return this.#done();
    }
    this.#bodyLeft -= chunk.length;
    if (this.#bodyLeft > 0) return;
    if (this.#bodyLeft < 0) return this.#fail(new Error("more bytes than one answer: the bench sends one request at a time"));
    this.#bodyLeft = -1;
    this.#done();
  }

  #done() {
    this.#idleSince = performance.now();
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
 * A load generator for the server at `url`. `request(path, body, headers)` prepares a JSON POST;
 * `send(requests, connections)` sends each prepared request of the list once, `connections` in flight, and
 * resolves with the requests per second; `repeat(request, amount, connections)` sends one `amount` times.
 * Any answer but 200 rejects. Connections are opened as needed, again when the server closed them or they
 * were idle for long, and kept until `close()`.
 */
export function httpLoad(url) {
  const { hostname, port } = new URL(url);
  const connections = [];
  const run = async (amount, inFlight, requestAt) => {
    for (let i = 0; i < inFlight; i++) {
      if (connections[i]?.usable) continue;
      connections[i]?.close();
      connections[i] = new Connection(hostname, Number(port));
    }
    let sent = 0;
    const started = performance.now();
    const worker = async (connection) => {
      while (sent < amount) {
        const status = await connection.send(requestAt(sent++));
        if (status !== 200) throw new Error(`${url}: answered ${status}`);
      }
    };
    await Promise.all(connections.slice(0, inFlight).map(worker));
    return amount / ((performance.now() - started) / 1000);
  };
  return {
    request(path, body, headers = {}) {
      const bytes = Buffer.from(body);
      const lines = Object.entries({ host: `${hostname}:${port}`, "content-type": "application/json", ...headers, "content-length": bytes.length });
      const head = `POST ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`;
      return Buffer.concat([Buffer.from(head, "latin1"), bytes]);
    },
    send: (requests, inFlight) => run(requests.length, inFlight, (i) => requests[i]),
    repeat: (request, amount, inFlight) => run(amount, inFlight, () => request),
    close() {
      for (const connection of connections) connection.close();
    },
  };
}
