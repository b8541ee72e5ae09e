import { AuditPage, AuditQuery } from "@iccid/core";
import { parseInput } from "../http/guards.js";
import { defineRoute } from "./route.js";

/** The signed-in account's audit trail, newest first, a page at a time (the account page's Activity list). */
export const auditRoute = defineRoute({
  method: "get",
  path: "/api/v1/audit",
  summary: "The account's audit trail, newest first",
  description:
    "Who signed in, created, rolled or revoked keys, and what the operator changed, with the client's address " +
    "and User-Agent. Never a secret, password or key value. Pass next_cursor as cursor for the next page.",
  auth: { kind: "session" },
  query: AuditQuery,
  response: { status: 200, description: "A page of events", schema: AuditPage },
  handler: (s) => async (ctx) => {
    const query = parseInput(AuditQuery, { ...ctx.query }, "query");
    ctx.body = await s.audit.page(ctx.state.session.account.id, query);
  },
});
