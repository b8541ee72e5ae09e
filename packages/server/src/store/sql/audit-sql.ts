import type { AuditFilter } from "../store.js";

/** The read of audit events a filter asks for, newest first; ties on the instant are broken by id. */
export function auditEventsQuery(filter: AuditFilter): { sql: string; params: Array<string | number> } {
  const where: string[] = [];
  const params: Array<string | number> = [];
  if (filter.accountId !== undefined) {
    where.push("account_id = ?");
    params.push(filter.accountId);
  }
  if (filter.since !== undefined) {
    where.push("at >= ?");
    params.push(filter.since);
  }
  if (filter.before) {
    where.push("(at < ? OR (at = ? AND id < ?))");
    params.push(filter.before.at, filter.before.at, filter.before.id);
  }
  const condition = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
  return { sql: `SELECT * FROM audit_events ${condition} ORDER BY at DESC, id DESC LIMIT ?`, params: [...params, filter.limit] };
}
