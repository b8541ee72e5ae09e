import { IDEMPOTENCY_WINDOW_MS } from "../../domain/idempotency-window.js";
import type { IdempotencyStore, Proof, ProvenRequest } from "../store.js";
import type { SqlDriver } from "./sql-driver.js";

/**
 * A request's proof, unless a live one is there (parameters: the columns, then the window's start): a
 * proof from before the window is replaced, its key free to use again. Charges write it in their
 * transaction (the SQLite driver, and commit_charges on PostgreSQL, which spells it the same way).
 */
export const PROVE = `INSERT INTO idempotency_proofs AS p (key_hash, fingerprint, status, lookups, created_at, answer) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (key_hash) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, lookups = excluded.lookups,
    created_at = excluded.created_at, answer = excluded.answer
  WHERE p.created_at < ?`;

/**
 * The oldest proofs first, a bounded batch per statement: SQLite's rows are in rowid order, PostgreSQL's
 * heap in insertion order with a BRIN index on the time. A proof past its window is never read (findProof
 * asks for the window), so one left for the next sweep is harmless.
 */
const DELETE_OLDEST = {
  sqlite: `DELETE FROM idempotency_proofs WHERE rowid IN (SELECT rowid FROM idempotency_proofs ORDER BY rowid LIMIT ?) AND created_at < ?`,
  postgres: `DELETE FROM idempotency_proofs WHERE ctid = ANY (ARRAY(SELECT ctid FROM idempotency_proofs WHERE created_at < ? LIMIT ?))`,
};

/** The proofs of Idempotency-Key requests, in the SQL both dialects accept where they can. */
export class SqlIdempotencyStore implements IdempotencyStore {
  constructor(private readonly driver: SqlDriver) {}

  async findProof(key: Buffer, since: number): Promise<ProvenRequest | undefined> {
    const row = await this.driver.get<{ fingerprint: Uint8Array; status: number; answer: string | null }>(
      "SELECT fingerprint, status, answer FROM idempotency_proofs WHERE key_hash = ? AND created_at >= ?",
      [key, since],
    );
    return row && { fingerprint: Buffer.from(row.fingerprint), status: row.status, answer: row.answer };
  }

  async keepProof(proof: Proof): Promise<boolean> {
    const { key, fingerprint, status, lookups, at, answer } = proof;
    return (await this.driver.run(PROVE, [key, fingerprint, status, lookups, at, answer ?? null, at - IDEMPOTENCY_WINDOW_MS])) === 1;
  }

  deleteProofsBefore(at: number, limit: number): Promise<number> {
    return this.driver.dialect === "sqlite" ? this.driver.run(DELETE_OLDEST.sqlite, [limit, at]) : this.driver.run(DELETE_OLDEST.postgres, [at, limit]);
  }

  reclaimSpace(): Promise<void> {
    return this.driver.reclaimSpace();
  }
}
