import pg from "pg";

/** The channel the grant triggers notify on (migration 4); the payload is the schema that changed. */
export const GRANT_CHANNEL = "iccid_key_grants";
const RECONNECT_MS = 500;

/**
 * Hears of changes to what key grants depend on (a key revoked, a subscription or plan changed), made by
 * any instance or operator command: one connection that LISTENs to the grant triggers' notices. While it
 * is not listening (not yet connected, or the connection was lost and is being made again), `listening`
 * is false and the grant cache must not answer, because a notice may be missed; once listening again,
 * the cache starts empty.
 */
export class GrantNotices {
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connect: () => pg.Client,
    private readonly onChange: () => void,
    private readonly onListening: (listening: boolean) => void,
  ) {}

  start(): void {
    void this.#listen();
  }

  async #listen(): Promise<void> {
    if (this.#closed) return;
    const client = this.connect();
    this.#client = client;
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.onListening(false);
      void client.end().catch(() => {});
      if (!this.#closed) this.#retry = setTimeout(() => void this.#listen(), RECONNECT_MS);
    };
    client.on("error", lost);
    client.on("end", lost);
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>("SELECT current_schema() AS schema");
      const schema = rows[0]!.schema;
      client.on("notification", (notice) => {
        if (notice.channel === GRANT_CHANNEL && notice.payload === schema) this.onChange();
      });
      await client.query(`LISTEN ${GRANT_CHANNEL}`);
      if (this.#client === client) this.onListening(true);
    } catch {
      lost();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    this.onListening(false);
    await client?.end().catch(() => {});
  }
}
