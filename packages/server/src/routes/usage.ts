import { UsageQuery } from "@iccid/core";
import { bearer } from "../http/bearer.js";
import { parseInput } from "../http/json-body.js";
import type { ApiRouter, RouteServices } from "./context.js";

export function usageRoutes(router: ApiRouter, s: RouteServices): void {
  // Reading usage spends neither quota nor rate: it must work when both are used up.
  router.get("/api/v1/usage", bearer(s.apiKeys, s.limiter, { spend: false }), async (ctx) => {
    await s.usageReads.take(ctx.state.grant.account.id);
    const query = parseInput(UsageQuery, { ...ctx.query }, "query");
    ctx.body = await s.usage.build(ctx.state.grant, query, ctx.state.rateLimit);
  });
}
