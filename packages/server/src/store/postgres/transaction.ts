import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { StoreUnavailable } from "../errors.js";
import { isConnectionLoss, storeError } from "./pg-errors.js";

export type Queryable = Pick<pg.PoolClient, "query">;

/**
 * Runs `work` in a transaction on a checked-out client. The client gets an `error` listener while it is
 * out (a connection cut under load would otherwise be an unhandled 'error' event that ends the process),
 * and a client whose connection failed is discarded rather than returned to the pool.
 *
 * With `resolveLostCommit`, a COMMIT whose connection is lost before its answer is not taken as failed:
 * whether it happened is asked (txid_status) on another connection, so a charge that did commit is not
 * answered 503 (and charged again when the client retries).
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: Queryable) => Promise<T>,
  { resolveLostCommit = false } = {},
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw new StoreUnavailable({ cause: error });
  }
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on("error", onError);
  try {
    let xid: string | undefined;
    if (resolveLostCommit) {
      const [, begun] = (await client.query("BEGIN; SELECT txid_current()::text AS xid")) as unknown as pg.QueryResult<{ xid: string }>[];
      xid = begun!.rows[0]!.xid;
    } else {
      await client.query("BEGIN");
    }
    const result = await work(client);
    try {
      await client.query("COMMIT");
    } catch (error) {
      if (!(xid && isConnectionLoss(error) && (await committed(pool, xid)))) throw error;
    }
    return result;
  } catch (error) {
    // A client whose connection was lost (or whose query timed out) is discarded, not rolled back: a
    // ROLLBACK queued on it may never be answered, and would hold up every charge behind this one.
    if (!broken && isConnectionLoss(error)) broken = error as Error;
    if (!broken) await client.query("ROLLBACK").catch((e: Error) => (broken = e));
    throw storeError(error);
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}

/**
 * Whether the transaction `xid` committed, asked for up to 5 s while PostgreSQL is out of reach or the
 * transaction is still finishing. Without an answer it counts as not committed: the request is answered
 * 503 and, in that rare case, may have been charged.
 */
async function committed(pool: pg.Pool, xid: string): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      const { rows } = await pool.query<{ status: string | null }>("SELECT txid_status($1::bigint) AS status", [xid]);
      if (rows[0]?.status !== "in progress") return rows[0]?.status === "committed";
    } catch {
      // still out of reach: ask again
    }
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}
