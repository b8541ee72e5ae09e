import { Usage, UsageQuery } from "@iccid/core";
import { parseInput } from "../http/guards.js";
import { defineRoute } from "./route.js";

export const usageRoute = defineRoute({
  method: "get",
  path: "/api/v1/usage",
  summary: "Usage, quota and rate limit of the key's account",
  description:
    "Spends neither quota nor rate limit. Usage is counted by the hour: a from or to given must be on a whole " +
    "hour (422 invalid_input naming it otherwise), and the window [from, to) is then counted exactly.",
  // Reading usage charges no quota and consumes no rate limit: it must work when both are used up.
  auth: { kind: "apiKey", consume: false, scope: "usage:read" },
  query: UsageQuery,
  budget: "usage_reads",
  response: { status: 200, description: "Usage", schema: Usage },
  handler: (s) => async (ctx) => {
    const query = parseInput(UsageQuery, { ...ctx.query }, "query");
    ctx.body = await s.usage.build(ctx.state.payer, query, ctx.state.rateLimit!); // set by the apiKey guard
  },
});
