import { EidBatchRequest, EidBatchResult, EidLookupRequest, EidResult } from "@iccid/core";
import { answerBatch } from "../http/batch-answer.js";
import { parseInput } from "../http/guards.js";
import { defineRoute, type Route } from "./route.js";

// As the ICCID routes: both consume a request of the rate limit, and quota for what they answer.
const consume = { kind: "apiKey", consume: true, scope: "lookup" } as const;

export const eidRoutes: Route[] = [
  defineRoute({
    method: "post",
    path: "/api/v1/eid/lookup",
    summary: "Look up one EID",
    description: "Reads an eUICC's 32-digit identifier: its check digits and, for an SGP.02 EID, its country and issuer. One EID is one lookup.",
    auth: consume,
    idempotency: {},
    body: { schema: EidLookupRequest, required: true },
    response: { status: 200, description: "The EID result (valid may be false)", schema: EidResult },
    problems: ["quota_exceeded"],
    handler: (s) => async (ctx) => {
      const { eid } = parseInput(EidLookupRequest, ctx.request.body);
      ctx.body = await s.eidLookups.lookup(ctx.state.payer, eid, ctx.state.claimed);
    },
  }),
  defineRoute({
    method: "post",
    path: "/api/v1/eid/batch",
    summary: "Look up 1 to 1000 EIDs",
    description:
      "One result per input, in input order. A bad item never fails the request. summary.unique counts " +
      "distinct normalised EIDs plus distinct failed inputs; each distinct EID answered is one lookup.",
    auth: consume,
    idempotency: {},
    body: { schema: EidBatchRequest, required: true },
    response: { status: 200, description: "The EID batch result", schema: EidBatchResult },
    problems: ["quota_exceeded"],
    handler: (s) => async (ctx) => {
      const { eids } = parseInput(EidBatchRequest, ctx.request.body);
      await answerBatch(ctx, s.eidLookups.batch(ctx.state.payer, eids, ctx.state.claimed));
    },
  }),
];
