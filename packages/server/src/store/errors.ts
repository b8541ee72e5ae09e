/** The store cannot be reached or is too busy to answer: the request gets 503 `unavailable`, not a 500. */
export class StoreUnavailable extends Error {
  constructor(options?: { cause?: unknown }) {
    super("the store is unavailable", options);
    this.name = "StoreUnavailable";
  }
}
