import { userInfo } from "node:os";
import type { AuditOrigin } from "../domain/audit-origin.js";

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
