import type pg from "pg";
import { StoreUnavailable } from "../errors.js";
import { isConnectionLoss, noDatabase, refusedCredentials } from "./pg-errors.js";

export type Queryable = Pick<pg.PoolClient, "query">;

/**
 * Runs `work` on a checked-out client. The client gets an `error` listener while it is out (a connection
 * cut under load would otherwise be an unhandled 'error' event that ends the process), and a client whose
 * connection failed is discarded rather than returned to the pool. `cleanUp` runs on a failure while the
 * connection still stands (a transaction's ROLLBACK); it is skipped on a connection that was lost.
 * No connection to be had is StoreUnavailable, before anything was sent.
 */
export async function withClient<T>(
  pool: pg.Pool,
  work: (client: Queryable) => Promise<T>,
  cleanUp?: (client: Queryable) => Promise<unknown>,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw noDatabase(error) ?? refusedCredentials(error) ?? new StoreUnavailable({ cause: error });
  }
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on("error", onError);
  try {
    return await work(client);
  } catch (error) {
    // A client whose connection was lost (or whose query timed out) is discarded, not cleaned up: a
    // ROLLBACK queued on it may never be answered, and would hold up every charge behind this one.
    if (!broken && isConnectionLoss(error)) broken = error as Error;
    if (!broken && cleanUp) await cleanUp(client).catch((e: Error) => (broken = e));
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}
