import { BatchRequest, LookupRequest } from "@iccid/core";
import { bearer } from "../http/bearer.js";
import { parseInput, readJson } from "../http/json-body.js";
import { sendJson } from "../http/json-response.js";
import type { ApiRouter, RouteServices } from "./context.js";

export function iccidRoutes(router: ApiRouter, s: RouteServices): void {
  const auth = bearer(s.apiKeys, s.limiter, { spend: true });

  router.post("/api/v1/iccid/lookup", auth, async (ctx) => {
    const { iccid } = parseInput(LookupRequest, await readJson(ctx, s.settings.bodyLimitBytes));
    sendJson(ctx, await s.lookups.lookup(ctx.state.grant, iccid));
  });

  router.post("/api/v1/iccid/batch", auth, async (ctx) => {
    const { iccids } = parseInput(BatchRequest, await readJson(ctx, s.settings.bodyLimitBytes));
    sendJson(ctx, await s.lookups.batch(ctx.state.grant, iccids));
  });
}
