import type { IdempotencyClaim, IdempotencyStore, IdempotentRequestId, KeptRequest, StoredAnswer } from "../store.js";
import type { SqlDriver } from "./sql-driver.js";

const WHERE_ID = "account_id = ? AND route = ? AND idempotency_key = ?";

function idParams(id: IdempotentRequestId): string[] {
  return [id.accountId, id.route, id.key];
}

/**
 * The kept answers of Idempotency-Key requests, in the SQL both dialects accept. A claim is one
 * transaction: the row's stale version (expired, or pending and abandoned) is deleted, a pending row is
 * inserted unless one is there, and the row is read back; the primary key makes exactly one of two
 * claims at once, on any instance, the one that inserted.
 */
export class SqlIdempotencyStore implements IdempotencyStore {
  constructor(private readonly driver: SqlDriver) {}

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<KeptRequest | "claimed"> {
    const id = idParams(claim.id);
    const [, inserted, read] = await this.driver.atomically([
      {
        sql: `DELETE FROM idempotent_requests WHERE ${WHERE_ID} AND (created_at < ? OR (status IS NULL AND created_at < ?))`,
        params: [...id, claim.expiredBefore, claim.abandonedBefore],
      },
      {
        sql: `INSERT INTO idempotent_requests (account_id, route, idempotency_key, fingerprint, created_at) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT (account_id, route, idempotency_key) DO NOTHING`,
        params: [...id, claim.fingerprint, claim.at],
      },
      { sql: `SELECT fingerprint, status, content_type, body FROM idempotent_requests WHERE ${WHERE_ID}`, params: id },
    ]);
    if (inserted!.changes === 1) return "claimed";
    const row = read!.rows[0] as { fingerprint: string; status: number | null; content_type: string | null; body: string | null };
    const answer = row.status === null ? undefined : { status: row.status, contentType: row.content_type ?? "", body: row.body ?? "" };
    return { fingerprint: row.fingerprint, ...(answer ? { answer } : {}) };
  }

  async keepIdempotentAnswer(id: IdempotentRequestId, answer: StoredAnswer): Promise<void> {
    await this.driver.run(`UPDATE idempotent_requests SET status = ?, content_type = ?, body = ? WHERE ${WHERE_ID} AND status IS NULL`, [
      answer.status,
      answer.contentType,
      answer.body,
      ...idParams(id),
    ]);
  }

  async releaseIdempotencyKey(id: IdempotentRequestId): Promise<void> {
    await this.driver.run(`DELETE FROM idempotent_requests WHERE ${WHERE_ID} AND status IS NULL`, idParams(id));
  }

  deleteIdempotentRequestsBefore(at: number): Promise<number> {
    return this.driver.run("DELETE FROM idempotent_requests WHERE created_at < ?", [at]);
  }
}
