import pg from "pg";
import { StoreUnavailable } from "../errors.js";

/** A named statement: parsed once per connection, then only bound and executed. */
export interface NamedStatement {
  name: string;
  text: string;
}

/**
 * The connection the group commit runs on, of its own rather than checked out of the pool for each
 * commit: commits run one at a time (ChargeBatch), so one connection serves them all, and a commit is then
 * one write of Bind, Execute and Sync and one read of its rows. Checking a client out and back in, pg's
 * Query (a Describe of the result and a row parser built for every call, each value mapped) and the pool's
 * bookkeeping were a third of what an instance on PostgreSQL spent per commit beyond the commit itself.
 *
 * The connection is made on first use and again after it failed: a lost or timed-out connection, or any
 * error answered on it (whether the statement is still prepared is then unknown), ends it, and the next
 * call opens a new one. A connection that cannot be made is StoreUnavailable, before anything was sent.
 */
export class CommitConnection {
  #client: PreparedClient | undefined;

  constructor(private readonly config: pg.ClientConfig) {}

  /** Runs `statement` with `values` (text, as PostgreSQL parses its parameters); answers each row's fields as text. */
  async call(statement: NamedStatement, values: readonly string[]): Promise<string[][]> {
    const client = this.#client ?? this.#connect();
    await client.connected;
    try {
      const rows = await new Promise<string[][]>((resolve, reject) =>
        client.pg.query(new LeanCall(statement, !client.prepared.has(statement.name), values, (error, rows) => (error ? reject(error) : resolve(rows!)))),
      );
      client.prepared.add(statement.name);
      return rows;
    } catch (error) {
      this.#discard(client);
      throw error;
    }
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.connected.then(() => client.pg.end()).catch(() => {});
  }

  #connect(): PreparedClient {
    const db = new pg.Client(this.config);
    const client: PreparedClient = {
      pg: db,
      prepared: new Set(),
      ending: false,
      connected: db.connect().then(
        () => {},
        (error: unknown) => {
          this.#discard(client);
          throw new StoreUnavailable({ cause: error });
        },
      ),
    };
    // Listened to for as long as the client lives: an 'error' nobody hears would end the process.
    db.on("error", () => this.#discard(client));
    db.on("end", () => this.#discard(client));
    this.#client = client;
    return client;
  }

  #discard(client: PreparedClient): void {
    if (this.#client === client) this.#client = undefined;
    if (client.ending) return;
    client.ending = true;
    client.pg.end().catch(() => {});
  }
}

interface PreparedClient {
  pg: pg.Client;
  /** The statements this connection has parsed (marked once their first call succeeded). */
  prepared: Set<string>;
  /** Settles when the connection is made; rejects with StoreUnavailable if it cannot be. */
  connected: Promise<void>;
  ending: boolean;
}

type Done = (error: Error | null, rows?: string[][]) => void;

/**
 * One call of a named statement as a pg Submittable (the interface pg-cursor is built on): Parse the first
 * time on a connection, then Bind, Execute, Sync, in one write. No Describe: the caller knows its columns,
 * so the rows are kept as the text fields pg's protocol parser hands over. pg's client calls `callback`
 * (which it wraps with the connection's query_timeout) once: with the rows at ReadyForQuery, or with the
 * error (an ErrorResponse, the connection lost, the timeout).
 */
class LeanCall {
  readonly rows: string[][] = [];

  constructor(
    private readonly statement: NamedStatement,
    private readonly parse: boolean,
    private readonly values: readonly string[],
    public callback: Done,
  ) {}

  submit(connection: pg.Connection): void {
    const stream = connection.stream as pg.Connection["stream"] & { cork?: () => void; uncork?: () => void };
    stream.cork?.();
    try {
      if (this.parse) connection.parse({ name: this.statement.name, text: this.statement.text, types: [] }, true);
      connection.bind({ statement: this.statement.name, values: this.values as string[] }, true);
      connection.execute({}, true);
      connection.sync();
    } finally {
      stream.uncork?.();
    }
  }

  handleDataRow(message: { fields: string[] }): void {
    this.rows.push(message.fields);
  }

  handleReadyForQuery(): void {
    this.callback(null, this.rows);
  }

  handleError(error: Error): void {
    this.callback(error);
  }

  handleCopyInResponse(connection: pg.Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail("no COPY here");
  }

  // Not asked for (no Describe) or not produced by a function call: nothing to do.
  handleRowDescription(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}
