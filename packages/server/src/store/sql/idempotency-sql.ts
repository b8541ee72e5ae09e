import { IDEMPOTENCY_WINDOW_MS } from "../../domain/idempotency-window.js";
import type { IdempotencyStore, Proof, ProvenRequest } from "../store.js";
import type { SqlDriver } from "./sql-driver.js";

/** A request's proof, unless one is there under its key (parameters: the columns). */
export const PROVE = `INSERT INTO idempotency_proofs (key_hash, fingerprint, status, lookups, created_at, answer) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (key_hash) DO NOTHING`;

/** Takes back the proof a refused charge wrote in its own transaction (parameter: the key). */
export const UNPROVE = "DELETE FROM idempotency_proofs WHERE key_hash = ?";

/**
 * Deletes the proof under a key if it is past its window (parameters: the key, the window's start), so
 * that the key's next proof is a new row: on SQLite at the end of the rowid order, where the sweep expects it.
 */
export const FORGET_EXPIRED = "DELETE FROM idempotency_proofs WHERE key_hash = ? AND created_at < ?";

/**
 * The oldest proofs first, a bounded batch per statement. SQLite looks at the first rows in rowid order,
 * which is the order of their times (each proof a new row, FORGET_EXPIRED); PostgreSQL finds them by the
 * BRIN index on the time. A proof past its window is never read (findProof asks for the window), so one
 * left for a later sweep (behind rows written before the clock was set back) is harmless.
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
    const [, kept] = await this.driver.atomically([
      { sql: FORGET_EXPIRED, params: [key, at - IDEMPOTENCY_WINDOW_MS] },
      { sql: PROVE, params: [key, fingerprint, status, lookups, at, answer ?? null] },
    ]);
    return kept!.changes === 1;
  }

  deleteProofsBefore(at: number, limit: number): Promise<number> {
    return this.driver.dialect === "sqlite" ? this.driver.run(DELETE_OLDEST.sqlite, [limit, at]) : this.driver.run(DELETE_OLDEST.postgres, [at, limit]);
  }

  reclaimSpace(): Promise<void> {
    return this.driver.reclaimSpace();
  }
}
