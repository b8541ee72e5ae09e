import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import type { ChargeOutcome } from "../store.js";

/** What commit_charges (migration 5) answers for each charge statement it ran, and keeps in its receipt. */
export type ChargeRun = ChargeOutcome;

const RESOLVE_FOR_MS = 5_000;
/** Receipts nobody will ask for again (their answers arrived or were given up) are gone after this. */
const KEEP_RECEIPTS_MS = 3_600_000;

/**
 * Resolves a group commit whose answer was lost with its connection: its runs if it committed, undefined
 * if it did not and now never will. The resolver claims the commit's token with a receipt of its own (a
 * tombstone): when the commit's receipt is there, committed or still being written, the claim finds it
 * (waiting for it to finish); when it is not, the tombstone makes the commit fail should it still arrive.
 * Asked for up to 5 s while PostgreSQL is out of reach; without an answer it counts as not committed: the
 * requests are answered 503 and, in that rare case, may have been charged.
 */
export async function claimReceipt(pool: pg.Pool, token: string): Promise<ChargeRun[] | undefined> {
  const deadline = Date.now() + RESOLVE_FOR_MS;
  for (;;) {
    try {
      const claim = await pool.query("INSERT INTO charge_receipts (token, made_at) VALUES ($1, $2) ON CONFLICT (token) DO NOTHING", [token, Date.now()]);
      if (claim.rowCount === 1) return undefined;
      // A tombstone of an earlier claim of ours (its answer lost too) has no runs: not committed either.
      const { rows } = await pool.query<ChargeRun>("SELECT unnest(charged) AS charged, unnest(used) AS used FROM charge_receipts WHERE token = $1", [token]);
      return rows.length > 0 ? rows : undefined;
    } catch {
      // still out of reach: ask again
    }
    if (Date.now() > deadline) return undefined;
    await sleep(50);
  }
}

/** Deletes the receipts of `tokens`, and any left by stopped processes or claims long enough ago. */
export async function forgetReceipts(pool: pg.Pool, tokens: readonly string[]): Promise<void> {
  await pool.query("DELETE FROM charge_receipts WHERE token = ANY ($1::uuid[]) OR made_at < $2", [tokens, Date.now() - KEEP_RECEIPTS_MS]);
}
