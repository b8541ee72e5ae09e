import type { ParameterizedContext } from "koa";
import type { AuditOrigin } from "../domain/audit-origin.js";
import { clientAddress } from "../http/client-address.js";
import type { AppState } from "../http/state.js";
import { sessionId } from "../services/sessions.js";

/** Who made a session request and from where, for the audit trail: the session, client address and User-Agent. */
export function sessionOrigin(ctx: ParameterizedContext<AppState>): AuditOrigin {
  return { actor: { type: "session", id: sessionId(ctx.state.session.hash) }, ip: clientAddress(ctx), userAgent: ctx.get("User-Agent") || null };
}
