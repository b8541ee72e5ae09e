/**
 * Who did an audited action and from where, as the domain knows it: the HTTP edge fills it from the
 * request (session, client address, User-Agent), the operator command from the user running it.
 */
export interface AuditOrigin {
  actor: { type: "session" | "operator" | "system"; id?: string };
  ip: string | null;
  userAgent: string | null;
}

/** Actions the server takes by itself. */
export const SYSTEM_ORIGIN: AuditOrigin = { actor: { type: "system" }, ip: null, userAgent: null };
