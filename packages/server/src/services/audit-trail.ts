import type { AuditAction, AuditEvent, AuditPage } from "@iccid/core";
import { monotonicFactory } from "ulid";
import type { AuditOrigin } from "../domain/audit-origin.js";
import { InvalidInput } from "../domain/refusals.js";
import type { AuditRow, AuditStore } from "../store/store.js";
import { rfc3339, type Clock } from "../time.js";

const DAY_MS = 86_400_000;
/** How often a process sweeps events past the retention away (on the next event it records). */
const SWEEP_INTERVAL_MS = 3_600_000;
/** A User-Agent is kept to this many characters, control characters dropped. */
const USER_AGENT_MAX = 256;
/** Events read at a time for the operator's listing. */
const OPERATOR_PAGE = 500;
/**
 * An event's id sorts after every id this process made before it, also within one millisecond, so the
 * trail's order (time, then id) is the order the events were recorded in: an account is created before
 * its first key even when both happen in the same millisecond.
 */
const nextEventId = monotonicFactory();

/**
 * The audit trail: who did what to an account, when and from where. It records actions, never their
 * secrets (no key values, passwords or session secrets go in). Given a retention (the server's setting),
 * it forgets older events; without one (a short-lived command that does not know the setting) it keeps all.
 */
export class AuditTrail {
  #sweptAt = -Infinity;

  constructor(
    private readonly store: AuditStore,
    private readonly clock: Clock,
    private readonly retentionDays?: number,
  ) {}

  /**
   * Records one action on an account (null: a server-wide one), on `target` and standing for `attempts`
   * (session.throttled) where it has them, and now and then sweeps old events away.
   */
  async record(accountId: string | null, action: AuditAction, origin: AuditOrigin, target?: string, attempts?: number): Promise<void> {
    const at = this.clock.now();
    await this.store.insertAuditEvent({
      id: `evt_${nextEventId(at)}`,
      account_id: accountId,
      at,
      action,
      actor_type: origin.actor.type,
      actor_id: origin.actor.id ?? null,
      ip: origin.ip,
      user_agent: origin.userAgent === null ? null : cleanUserAgent(origin.userAgent),
      target: target ?? null,
      attempts: attempts ?? null,
    });
    if (at - this.#sweptAt >= SWEEP_INTERVAL_MS) await this.sweep();
  }

  /** Deletes the events older than the retention; answers how many went. */
  async sweep(): Promise<number> {
    if (this.retentionDays === undefined) return 0;
    const now = this.clock.now();
    this.#sweptAt = now;
    return this.store.deleteAuditEventsBefore(now - this.retentionDays * DAY_MS);
  }

  /** One page of an account's events, newest first; `cursor` is the `next_cursor` of the page before. */
  async page(accountId: string, { limit, cursor }: { limit: number; cursor?: string | undefined }): Promise<AuditPage> {
    const before = cursor === undefined ? undefined : decodeCursor(cursor);
    const rows = await this.store.auditEvents({ accountId, limit: limit + 1, ...(before ? { before } : {}) });
    const events = rows.slice(0, limit);
    const last = events.at(-1);
    return { events: events.map(toAuditEvent), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  /**
   * Every event (one account's, or all), newest first, since an instant, at most `limit` of them: for the
   * operator, page by page as the store reads them, so a trail of any length costs one page of memory.
   */
  async *since(filter: { accountId?: string; since?: number; limit?: number }): AsyncGenerator<AuditEvent[]> {
    await this.sweep();
    const { limit = Infinity, ...where } = filter;
    let left = limit;
    let before: { at: number; id: string } | undefined;
    while (left > 0) {
      const rows = await this.store.auditEvents({ ...where, limit: Math.min(OPERATOR_PAGE, left), ...(before ? { before } : {}) });
      if (rows.length > 0) yield rows.map(toAuditEvent);
      left -= rows.length;
      const last = rows.at(-1);
      if (rows.length < OPERATOR_PAGE || !last) return;
      before = { at: last.at, id: last.id };
    }
  }
}

export function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    at: rfc3339(row.at),
    action: row.action,
    actor: row.actor_id === null ? { type: row.actor_type } : { type: row.actor_type, id: row.actor_id },
    ip: row.ip,
    user_agent: row.user_agent,
    ...(row.target === null ? {} : { target: row.target }),
    ...(row.attempts === null ? {} : { attempts: row.attempts }),
  };
}

function cleanUserAgent(userAgent: string): string | null {
  const clean = userAgent.replace(/\p{Cc}/gu, "").slice(0, USER_AGENT_MAX);
  return clean === "" ? null : clean;
}

// The cursor is the (at, id) of a page's last event, opaque to clients: base64url of "at.id".
function encodeCursor(row: AuditRow): string {
  return Buffer.from(`${row.at}.${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { at: number; id: string } {
  const match = /^(\d{1,15})\.(evt_[0-9A-Za-z]{1,64})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw new InvalidInput([{ field: ["cursor"], code: "invalid_cursor", detail: "must be a next_cursor from a page before" }]);
  return { at: Number(match[1]), id: match[2]! };
}
