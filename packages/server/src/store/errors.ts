/** The store cannot be reached or is too busy to answer: the request gets 503 `unavailable`, not a 500. */
export class StoreUnavailable extends Error {
  constructor(options?: { cause?: unknown }) {
    super("the store is unavailable", options);
    this.name = "StoreUnavailable";
  }
}

/** The database was written by a newer server (a later schema version than this one knows). */
export class SchemaTooNew extends Error {
  constructor(found: number, known: number) {
    super(`the database schema is version ${found}, newer than this server's ${known}: upgrade the server, or restore a backup`);
    this.name = "SchemaTooNew";
  }
}
