import { z } from "zod";
import { Timestamp } from "./common.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/audit.js";

/** Every action the audit trail records. */
export const AUDIT_ACTIONS = [
  "account.created",
  "session.created",
  "session.failed",
  "session.throttled",
  "session.ended",
  "sessions.ended",
  "key.created",
  "key.rolled",
  "key.revoked",
  "password.changed",
  "plan.changed",
  "subscription.changed",
  "prefixes.imported",
  "prefixes.removed",
  "plans.set",
] as const;

/** Who did it: a signed-in session, the operator's command line, or the server itself. */
export const AUDIT_ACTOR_TYPES = ["session", "operator", "system"] as const;

export const AUDIT_PAGE_MAX = 100;

export const AuditQuery = z
  .strictObject({
    limit: z.coerce.number<number>().int().min(1).max(AUDIT_PAGE_MAX).default(50).describe("Events per page, 1 to 100"),
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, { error: "must be a next_cursor from a page before" })
      .optional()
      .describe("The next_cursor of the page before"),
  })
  .register(apiSchemas, { id: "AuditQuery" });

export const AuditActor = z
  .object({
    type: z.enum(AUDIT_ACTOR_TYPES),
    id: z.string().optional().describe("The session's id, or the operator's user name"),
  })
  .register(apiSchemas, { id: "AuditActor" });

export const AuditEvent = z
  .object({
    id: z.string(),
    at: Timestamp,
    action: z.enum(AUDIT_ACTIONS),
    actor: AuditActor,
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    target: z.string().optional().describe("What the action was on: a key id"),
    attempts: z.number().int().positive().optional().describe("session.throttled: the sign-in attempts counted for the email in the window when the throttle began refusing"),
  })
  .register(apiSchemas, { id: "AuditEvent" });

export const AuditPage = z
  .object({
    events: z.array(AuditEvent).describe("Newest first"),
    next_cursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last"),
  })
  .register(apiSchemas, { id: "AuditPage" });

export type AuditAction = Wire.AuditAction;
export type AuditQuery = Wire.AuditQuery;
export type AuditActor = Wire.AuditActor;
export type AuditEvent = Wire.AuditEvent;
export type AuditPage = Wire.AuditPage;
