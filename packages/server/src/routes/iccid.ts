import { BatchRequest, BatchResult, LookupRequest, LookupResult } from "@iccid/core";
import { bearer } from "../http/bearer.js";
import { jsonEncoder } from "../http/json-encoder.js";
import { parseInput, readJson } from "../http/json-body.js";
import { encodeJson, sendEncoded, sendJson, type EncodedJson } from "../http/json-response.js";
import type { Lookups } from "../services/lookups.js";
import type { ApiRouter, RouteServices } from "./context.js";

const lookupJson = jsonEncoder(LookupResult);
const batchJson = jsonEncoder(BatchResult);

/**
 * A batch decoded and its answer encoded, before it is charged: the 1000 results are garbage by the time
 * the charge's commit is awaited, instead of being live (and copied by every young-generation GC) through it.
 */
function encodedBatch(lookups: Lookups, iccids: readonly string[]): { answer: EncodedJson; lookups: number } {
  const batch = lookups.decodeBatch(iccids);
  return { answer: encodeJson(batch.answer, batchJson), lookups: batch.lookups };
}

export function iccidRoutes(router: ApiRouter, s: RouteServices): void {
  const auth = bearer(s.apiKeys, s.limiter, { spend: true });

  router.post("/api/v1/iccid/lookup", auth, async (ctx) => {
    const { iccid } = parseInput(LookupRequest, await readJson(ctx, s.settings.bodyLimitBytes));
    sendJson(ctx, await s.lookups.lookup(ctx.state.grant, iccid), lookupJson);
  });

  router.post("/api/v1/iccid/batch", auth, async (ctx) => {
    const { iccids } = parseInput(BatchRequest, await readJson(ctx, s.settings.bodyLimitBytes));
    const { answer, lookups } = encodedBatch(s.lookups, iccids);
    try {
      await s.lookups.chargeBatch(ctx.state.grant, lookups);
    } catch (error) {
      answer.release?.();
      throw error;
    }
    sendEncoded(ctx, answer);
  });
}
