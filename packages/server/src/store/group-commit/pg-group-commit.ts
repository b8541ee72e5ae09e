import { randomUUID } from "node:crypto";
import type pg from "pg";
import { chargeByGroups, chargeGroups, type ChargeGroup } from "./group-commit.js";
import { StoreUnavailable } from "../errors.js";
import type { Charge, ChargeOutcome, Proof } from "../store.js";
import { claimReceipt, forgetReceipts, type ChargeRun } from "./charge-receipts.js";
import { ChargeRefunds } from "./charge-refunds.js";
import { numberArray, TEXT_FIELDS, textArray, uuidArray } from "../postgres/pg-arrays.js";
import { isConnectionLoss, storeError } from "../postgres/pg-errors.js";
import { withClient } from "../postgres/pooled-client.js";
import { IDEMPOTENCY_WINDOW_MS } from "../../domain/idempotency-window.js";

// A named prepared statement, so each connection plans it once (unnamed behind a transaction pooler, where
// the next call may run on a backend that never saw the name). The name says what it is to anyone watching
// the wire: the group's COMMIT (the lost-commit test cuts connections at it).
const COMMIT_CHARGES: { name?: string; text: string } = {
  name: "COMMIT_charges",
  text: "SELECT charged, used FROM commit_charges($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
};

/** The part of a commit's time kept for resolving it should its answer be lost (claimReceipt). */
const RESOLVE_SHARE = 0.2;

/**
 * The group commit on PostgreSQL in ONE round trip: one call of commit_charges (migration 5) in autocommit,
 * where a transaction took three (BEGIN, the charges, COMMIT). The call charges the groups and leaves a
 * receipt under a token made here; when the connection is lost after the call was sent, the receipt says
 * whether it committed (charge-receipts.ts), so a charge that did is not answered 503 (and charged again
 * when the client retries), and one that did not is not charged later. A commit ends by the deadline of
 * its oldest charge: the call is sent with the time left but a fifth of the query timeout, kept for
 * resolving it; when PostgreSQL cannot say by the deadline, the requests are answered 503 and the commit is
 * refunded later if it did commit (charge-refunds.ts).
 */
export class PgGroupCommit {
  /** Tokens of commits whose answers arrived: their receipts are deleted by the next call. */
  #answered: string[] = [];
  readonly #refunds: ChargeRefunds;
  readonly #statement: { name?: string; text: string };
  readonly #resolveMs: number;

  /** `named`: the call is a named prepared statement (not behind a transaction pooler). */
  constructor(
    private readonly pool: pg.Pool,
    { named, timeoutMs }: { named: boolean; timeoutMs: number },
  ) {
    this.#statement = named ? COMMIT_CHARGES : { text: COMMIT_CHARGES.text };
    this.#refunds = new ChargeRefunds(pool);
    this.#resolveMs = timeoutMs * RESOLVE_SHARE;
  }

  /** Commits `charges` by `deadline` (performance.now()), or throws StoreUnavailable with nothing left charged. */
  async commit(charges: Charge[], deadline: number): Promise<ChargeOutcome[]> {
    const groups = chargeGroups(charges);
    const token = randomUUID();
    const forget = this.#answered;
    this.#answered = [];
    let runs: ChargeRun[];
    try {
      const values = [token, String(Date.now()), uuidArray(forget), ...groupColumns(charges, groups), String(IDEMPOTENCY_WINDOW_MS)];
      runs = (await this.#call(values, deadline - this.#resolveMs)).map(chargeRun);
      this.#refunds.reachable();
    } catch (error) {
      this.#answered.push(...forget);
      if (error instanceof StoreUnavailable || !isConnectionLoss(error)) throw storeError(error);
      const committed = await claimReceipt(this.pool, token, deadline);
      if (committed === undefined) this.#refunds.add({ token, charges, outcomes: (runs) => outcomesOf(charges, groups, runs) });
      if (!committed) throw new StoreUnavailable({ cause: error });
      runs = committed;
    }
    this.#answered.push(token);
    return outcomesOf(charges, groups, runs);
  }

  /**
   * Calls commit_charges on a connection of the pool, answered by `by` (withClient: no connection by then
   * is StoreUnavailable before anything was sent; one that failed or ran out of time is discarded).
   */
  async #call(values: string[], by: number): Promise<string[][]> {
    return withClient(
      this.pool,
      async (client) => {
        const { rows } = await client.query<string[]>({ ...this.#statement, values, rowMode: "array", types: TEXT_FIELDS });
        return rows;
      },
      undefined,
      by,
    );
  }

  /** Resolves what it still can, and deletes the receipts still kept (the answers of the last commits arrived). */
  async close(): Promise<void> {
    await this.#refunds.close();
    if (this.#answered.length > 0) await forgetReceipts(this.pool, this.#answered).catch(() => {});
  }
}

/**
 * commit_charges' arrays, as PostgreSQL's array literals: the groups' counters, lookups and sizes, then
 * every charge's lookups and proof (hex, NULL for none), group by group. Written here rather than by pg's
 * value mapping, which escapes every element of every array whatever its type.
 */
function groupColumns(charges: readonly Charge[], groups: readonly ChargeGroup[]): string[] {
  const merged = groups.map((g) => g.merged);
  const each = groups.flatMap((g) => g.indexes.map((i) => charges[i]!));
  const hex = (bytes: (proof: Proof) => Buffer) => `{${each.map((c) => (c.proof ? bytes(c.proof).toString("hex") : "NULL")).join(",")}}`;
  return [
    textArray(merged.map((c) => c.account_id)),
    numberArray(merged.map((c) => c.period_start)),
    numberArray(merged.map((c) => c.quota_limit)),
    numberArray(merged.map((c) => c.bucket_start)),
    textArray(merged.map((c) => c.key_id)),
    numberArray(merged.map((c) => c.lookups)),
    numberArray(groups.map((g) => g.requests)),
    numberArray(each.map((c) => c.lookups)),
    hex((proof) => proof.key),
    hex((proof) => proof.fingerprint),
    numberArray(each.map((c) => c.proof?.status ?? 0)),
    numberArray(each.map((c) => c.proof?.at ?? 0)),
  ];
}

/** A row of commit_charges as text fields (charged BOOLEAN, used BIGINT); charged NULL marks a replay. */
function chargeRun([charged, used]: Array<string | null>): ChargeRun {
  return charged === null ? { alreadyProven: Number(used) } : { charged: charged === "t", used: Number(used) };
}

/**
 * Each charge's outcome from the runs, which commit_charges made in the order chargeByGroups takes its
 * steps (a run per group, then, for a group of several that did not fit as a whole, a run per charge of
 * it): replaying those steps over the runs reads each one where it belongs. The replays' rows come after
 * them, each naming its charge by its place in the arrays, which are group by group.
 */
function outcomesOf(charges: readonly Charge[], groups: readonly ChargeGroup[], runs: readonly ChargeRun[]): ChargeOutcome[] {
  const made = runs.filter((run): run is ChargeOutcome => !("alreadyProven" in run));
  let next = 0;
  const outcomes = chargeByGroups(charges, () => made[next++]!, groups);
  const order = groups.flatMap((g) => g.indexes);
  for (const run of runs) {
    if (!("alreadyProven" in run)) continue;
    const i = order[run.alreadyProven - 1]!;
    outcomes[i] = { charged: false, used: outcomes[i]!.used - charges[i]!.lookups, replayed: true };
  }
  return outcomes;
}
