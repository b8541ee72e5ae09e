/** What an audit event records. */
export type AuditAction =
  | "account.created"
  | "session.created"
  | "session.failed"
  | "session.throttled"
  | "session.ended"
  | "sessions.ended"
  | "key.created"
  | "key.rolled"
  | "key.revoked"
  | "password.changed"
  | "plan.changed"
  | "subscription.changed"
  | "prefixes.imported"
  | "prefixes.removed"
  | "plans.set";

/** `GET /api/v1/audit`'s query. */
export interface AuditQuery {
  /** Events per page, 1 to 100; default 50. */
  limit?: number;
  /** The `next_cursor` of the page before; absent for the newest events. */
  cursor?: string;
}

/** Who did it. */
export interface AuditActor {
  /** A signed-in web session, the operator's command line (`iccid-server`), or the server itself. */
  type: "session" | "operator" | "system";
  /** The session's id (not its secret), or the operator's user name. */
  id?: string;
}

/** One entry of an account's audit trail. It never holds a secret, a password or a key's value. */
export interface AuditEvent {
  /** The event's id. */
  id: string;
  /** When it happened (RFC 3339, UTC). */
  at: string;
  /** What happened. */
  action: AuditAction;
  /** Who did it. */
  actor: AuditActor;
  /** The client's address, or null when the action did not come over HTTP. */
  ip: string | null;
  /** The client's User-Agent, or null. */
  user_agent: string | null;
  /** What the action was on, where it has one: a key id. */
  target?: string;
  /**
   * `session.throttled`: the sign-in attempts counted for the email in the throttle window when the
   * throttle began refusing; the attempts refused after it in that window are not recorded one by one.
   */
  attempts?: number;
}

/** `GET /api/v1/audit`'s answer: a page of the account's events, newest first. */
export interface AuditPage {
  /** The events, newest first. */
  events: AuditEvent[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}
