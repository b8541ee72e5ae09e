import pg from "pg";
import { StoreUnavailable } from "../errors.js";

/**
 * A statement: when named, pg parses it once per connection, then only binds and executes it; unnamed, it
 * is parsed on every call (what a transaction pooler allows).
 */
export interface CommitStatement {
  name?: string;
  text: string;
}

/** Every column as the text PostgreSQL sent: the caller knows its columns and reads them itself. */
const TEXT_FIELDS: pg.CustomTypesConfig = { getTypeParser: () => (value: string) => value };

/**
 * The connection the group commit runs on, of its own rather than checked out of the pool for each
 * commit: commits run one at a time, so one connection serves them all, with no check-out, check-in or
 * pool bookkeeping per commit.
 *
 * The connection is made on first use and again after it failed: a lost or timed-out connection, or any
 * error answered on it, ends it, and the next call opens a new one. A connection that cannot be made is
 * StoreUnavailable, before anything was sent.
 */
export class CommitConnection {
  #client: CommitClient | undefined;

  constructor(private readonly config: pg.ClientConfig) {}

  /** Runs `statement` with `values` (text, as PostgreSQL parses its parameters); answers each row's fields as text. */
  async call(statement: CommitStatement, values: readonly string[]): Promise<string[][]> {
    const client = this.#client ?? this.#connect();
    await client.connected;
    try {
      const result = await client.pg.query<string[]>({ ...statement, values: values as string[], rowMode: "array", types: TEXT_FIELDS });
      return result.rows;
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

  #connect(): CommitClient {
    const db = new pg.Client(this.config);
    const client: CommitClient = {
      pg: db,
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

  #discard(client: CommitClient): void {
    if (this.#client === client) this.#client = undefined;
    if (client.ending) return;
    client.ending = true;
    client.pg.end().catch(() => {});
  }
}

interface CommitClient {
  pg: pg.Client;
  /** Settles when the connection is made; rejects with StoreUnavailable if it cannot be. */
  connected: Promise<void>;
  ending: boolean;
}
