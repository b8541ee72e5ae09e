import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import type { ChargeOutcome } from "../store.js";
import { withClient, type Queryable } from "../postgres/pooled-client.js";

/**
 * What commit_charges (migration 9) answers for each charge statement it ran, and keeps in its receipt; and
 * for each charge it took back because its proof was already there, that charge's place (1-based).
 */
export type ChargeRun = ChargeOutcome | { alreadyProven: number };

/** Receipts nobody will ask for again (their answers arrived or were given up) are gone after this. */
const KEEP_RECEIPTS_MS = 3_600_000;

/**
 * One claim of a group commit's token: its runs if it committed, null if it did not and now never will.
 * The claim is a receipt of its own (a tombstone): when the commit's receipt is there, committed or still
 * being written, the claim finds it (waiting for it to finish); when it is not, the tombstone makes the
 * commit fail should it still arrive. Throws when PostgreSQL cannot be asked.
 */
export async function claimOnce(db: Queryable, token: string): Promise<ChargeRun[] | null> {
  const claim = await db.query("INSERT INTO charge_receipts (token, made_at) VALUES ($1, $2) ON CONFLICT (token) DO NOTHING", [token, Date.now()]);
  if (claim.rowCount === 1) return null;
  // A tombstone of an earlier claim of ours (its answer lost too) has no runs: not committed either.
  const { rows } = await db.query<{ charged: boolean | null; used: number }>(
    "SELECT unnest(charged) AS charged, unnest(used) AS used FROM charge_receipts WHERE token = $1",
    [token],
  );
  return rows.length > 0 ? rows.map((r) => (r.charged === null ? { alreadyProven: Number(r.used) } : { charged: r.charged, used: Number(r.used) }) as ChargeRun) : null;
}

/**
 * Resolves a group commit whose answer was lost with its connection: its runs if it committed, null if it
 * did not. Asked again and again while PostgreSQL is out of reach, until `deadline` (performance.now(), the
 * deadline of the commit's oldest charge); undefined when it could not be asked by then (the requests are
 * then answered 503, and the commit is resolved later: charge-refunds.ts).
 */
export async function claimReceipt(pool: pg.Pool, token: string, deadline: number): Promise<ChargeRun[] | null | undefined> {
  for (;;) {
    try {
      return await withClient(pool, (client) => claimOnce(client, token), undefined, deadline);
    } catch {
      // still out of reach: ask again
    }
    if (performance.now() + 50 > deadline) return undefined;
    await sleep(50);
  }
}

/** Deletes the receipts of `tokens`, and any left by stopped processes or claims long enough ago. */
export async function forgetReceipts(pool: pg.Pool, tokens: readonly string[]): Promise<void> {
  await pool.query("DELETE FROM charge_receipts WHERE token = ANY ($1::uuid[]) OR made_at < $2", [tokens, Date.now() - KEEP_RECEIPTS_MS]);
}
