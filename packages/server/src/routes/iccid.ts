import { BatchRequest, BatchResult, csvLine, LOOKUP_ROW_COLUMNS, LookupRequest, LookupResult, lookupRowCsv, type BatchItem } from "@iccid/core";
import { answerBatch, type CsvForm } from "../http/batch-answer.js";
import { parseInput } from "../http/guards.js";
import { defineRoute, type Route } from "./route.js";

// Both consume a request of the rate limit, and quota for what they answer; the account page calls them
// with its session (usage counted under the page's own id, apart from the account's keys).
const consume = { kind: "apiKey", consume: true, scope: "lookup", session: true } as const;

/** The ICCID batch's CSV: one lookup row per input, the columns of `iccid batch` (docs/api.md). */
const LOOKUP_ROWS: CsvForm<BatchItem> = { header: csvLine(LOOKUP_ROW_COLUMNS), row: (item) => lookupRowCsv(item) + "\n" };

export const iccidRoutes: Route[] = [
  defineRoute({
    method: "post",
    path: "/api/v1/iccid/lookup",
    summary: "Look up one ICCID",
    auth: consume,
    idempotency: {},
    body: { schema: LookupRequest, required: true },
    response: { status: 200, description: "The lookup result (valid may be false)", schema: LookupResult },
    problems: ["quota_exceeded"],
    handler: (s) => async (ctx) => {
      const { iccid, imsi } = parseInput(LookupRequest, ctx.request.body);
      ctx.body = await s.lookups.lookup(ctx.state.payer, iccid, imsi, ctx.state.claimed);
    },
  }),
  defineRoute({
    method: "post",
    path: "/api/v1/iccid/batch",
    summary: "Look up 1 to 1000 ICCIDs",
    description:
      "One result per input, in input order; an item is an ICCID, or { iccid, imsi } with the SIM's IMSI. A bad " +
      "item never fails the request. summary.unique counts distinct normalised ICCIDs (with their IMSI) plus " +
      "distinct failed inputs; each distinct ICCID (with its IMSI) answered is one lookup.",
    auth: consume,
    idempotency: {},
    body: { schema: BatchRequest, required: true },
    response: {
      status: 200,
      description: "The batch result; as CSV when Accept prefers text/csv",
      schema: BatchResult,
      csv: {
        description:
          "A header line, then one lookup row per input in input order: the columns of `iccid batch` " +
          "(docs/api.md, \"The batch as CSV\"), formula-neutralised and quoted per RFC 4180.",
        rows: LOOKUP_ROWS,
      },
    },
    problems: ["quota_exceeded"],
    handler: (s) => async (ctx) => {
      const { iccids } = parseInput(BatchRequest, ctx.request.body);
      await answerBatch(ctx, s.lookups.batch(ctx.state.payer, iccids, ctx.state.claimed));
    },
  }),
];
