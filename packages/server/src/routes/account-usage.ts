import { Usage, UsageQuery } from "@iccid/core";
import { parseInput } from "../http/guards.js";
import { payingAccount } from "../services/web-page-payer.js";
import { defineRoute } from "./route.js";

/**
 * The usage report for the signed-in account (the account page has a session, not an API key). Same query
 * and answer as GET /api/v1/usage. Unlike the Bearer read it also answers for an inactive subscription: the
 * page is where a user goes to see that status.
 */
export const accountUsageRoute = defineRoute({
  method: "get",
  path: "/api/v1/account/usage",
  summary: "Usage, quota and rate limit of the signed-in account (for the account page)",
  description:
    "The same report as GET /api/v1/usage, for a web session instead of an API key. Spends neither quota " +
    "nor rate limit, and also answers when the subscription is not active (the status is in the report).",
  auth: { kind: "session" },
  query: UsageQuery,
  budget: "usage_reads",
  response: { status: 200, description: "Usage", schema: Usage },
  handler: (s) => async (ctx) => {
    const query = parseInput(UsageQuery, { ...ctx.query }, "query");
    const payer = await payingAccount(s.store, ctx.state.session.account);
    // peek, not consume: reading usage consumes no request, as on the Bearer route.
    ctx.body = await s.usage.build(payer, query, await s.limiter.peek(payer.account.id, payer.plan));
  },
});
