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
 *
 * With a `deadline` (performance.now) the whole call ends by then: no connection by then is StoreUnavailable
 * unsent; each statement is sent with the time left as its query_timeout (past it the connection is
 * discarded, the statement's fate unknown), and none is sent once the time is up (StoreUnavailable).
 */
export async function withClient<T>(
  pool: pg.Pool,
  work: (client: Queryable) => Promise<T>,
  cleanUp?: (client: Queryable) => Promise<unknown>,
  deadline?: number,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await (deadline === undefined ? pool.connect() : connectBy(pool, deadline));
  } catch (error) {
    throw noDatabase(error) ?? refusedCredentials(error) ?? (error instanceof StoreUnavailable ? error : new StoreUnavailable({ cause: error }));
  }
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on("error", onError);
  const on = deadline === undefined ? client : bounded(client, deadline);
  try {
    return await work(on);
  } catch (error) {
    // A client whose connection was lost (or whose query timed out) is discarded, not cleaned up: a
    // ROLLBACK queued on it may never be answered, and would hold up every charge behind this one.
    if (!broken && isConnectionLoss(error)) broken = error as Error;
    if (!broken && cleanUp) await cleanUp(on).catch((e: Error) => (broken = e));
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}

const outOfTime = (what: string) => new StoreUnavailable({ cause: new Error(`${what} within the query timeout`) });

/** A client of the pool by `deadline`, or StoreUnavailable; one that comes later goes back to the pool. */
function connectBy(pool: pg.Pool, deadline: number): Promise<pg.PoolClient> {
  const connecting = pool.connect();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(outOfTime("no connection of the pool"));
      connecting.then((client) => client.release(), () => {});
    }, Math.max(0, deadline - performance.now()));
    connecting.then(
      (client) => {
        clearTimeout(timer);
        resolve(client);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** `client` with every statement sent with the time left until `deadline` as its query_timeout. */
function bounded(client: pg.PoolClient, deadline: number): Queryable {
  const query = (config: string | pg.QueryConfig, values?: unknown[]) => {
    const left = Math.floor(deadline - performance.now());
    if (left <= 0) return Promise.reject(outOfTime("no answer"));
    const statement = typeof config === "string" ? { text: config, values } : config;
    return client.query({ ...statement, query_timeout: left } as pg.QueryConfig);
  };
  return { query } as unknown as Queryable;
}
