import { userInfo } from "node:os";
import type { AuditAction } from "@iccid/core";
import type { AuditOrigin } from "../domain/audit-origin.js";
import { AuditTrail } from "../services/audit-trail.js";
import type { Store } from "../store/store.js";
import { systemClock } from "../time.js";

/** The operator running `iccid-server`, for the audit trail: by the system user's name when there is one. */
export function operatorOrigin(): AuditOrigin {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // A user id without a passwd entry (some containers): the operator is recorded without a name.
  }
  return { actor: name ? { type: "operator", id: name } : { type: "operator" }, ip: null, userAgent: null };
}

/** Records the operator's change to what every account shares (issuer prefixes, plans): on no account's trail. */
export function recordServerWideChange(store: Store, action: AuditAction, target?: string): Promise<void> {
  return new AuditTrail(store, systemClock).record(null, action, operatorOrigin(), target);
}
