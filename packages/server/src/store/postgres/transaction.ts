import type pg from "pg";
import { storeError } from "./pg-errors.js";
import { withClient, type Queryable } from "./pooled-client.js";

/**
 * Runs `work` in a transaction on a checked-out client: committed if it succeeds, rolled back if it throws.
 * With a `deadline`, all of it ends by then (withClient).
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: Queryable) => Promise<T>, deadline?: number): Promise<T> {
  try {
    return await withClient(
      pool,
      async (client) => {
        await client.query("BEGIN");
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      },
      (client) => client.query("ROLLBACK"),
      deadline,
    );
  } catch (error) {
    throw storeError(error);
  }
}
