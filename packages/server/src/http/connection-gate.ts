import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Told of each request handed on, before it is handled. */
export type Admitted = (res: ServerResponse) => void;

/** The requests waiting behind a connection's current one; `paused` once the gate stopped reading it. */
interface Waiting {
  requests: Array<[IncomingMessage, ServerResponse]>;
  paused: boolean;
}

/**
 * One request at a time per connection: a request pipelined behind another waits, unhandled, until the
 * answer before it was handed to the kernel in full, and the connection is not read meanwhile (Node parses
 * what it has read already; nothing more comes in). A client that sends and never reads so holds one
 * answer, not one per request it sent. When the connection closes, the requests still waiting are dropped:
 * nobody is left to answer.
 *
 * `inFlight` counts the requests handed to `handle` whose answer is neither sent nor abandoned (their
 * connection closed): what a graceful stop waits for.
 */
export class ConnectionGate {
  /** Connections with a request being answered: the requests waiting behind it, in order. */
  readonly #busy = new WeakMap<Socket, Waiting>();
  #inFlight = 0;

  constructor(
    private readonly handle: RequestListener,
    private readonly admitted: Admitted = () => {},
  ) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /** The server's `request` (and `checkExpectation`) listener. */
  readonly listener: RequestListener = (req, res) => {
    const socket = req.socket;
    const waiting = this.#busy.get(socket);
    if (waiting) {
      waiting.requests.push([req, res]);
      // Every time: Node resumes a connection it paused itself once its writes drain.
      socket.pause();
      waiting.paused = true;
      return;
    }
    this.#busy.set(socket, { requests: [], paused: false });
    this.#admit(socket, req, res);
  };

  #admit(socket: Socket, req: IncomingMessage, res: ServerResponse): void {
    this.#inFlight++;
    // "close" follows "finish" (the last byte handed to the kernel), or the connection's end, whichever first.
    res.once("close", () => {
      this.#inFlight--;
      this.#next(socket);
    });
    this.admitted(res);
    this.handle(req, res);
  }

  #next(socket: Socket): void {
    const waiting = this.#busy.get(socket)!;
    const following = waiting.requests.shift();
    if (following === undefined || socket.destroyed) {
      // Nothing waits, or nobody is left to answer: the connection is free (and read again, if it was paused).
      this.#busy.delete(socket);
      if (waiting.paused && !socket.destroyed) socket.resume();
      return;
    }
    // A request whose body is still arriving needs the connection read again.
    if (!following[0].complete && waiting.paused) {
      waiting.paused = false;
      socket.resume();
    }
    this.#admit(socket, ...following);
  }
}
