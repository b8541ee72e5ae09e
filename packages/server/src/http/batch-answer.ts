import { BatchItem, BatchResult, BatchSummary, csvLine, LOOKUP_ROW_COLUMNS, lookupRowCsv } from "@iccid/core";
import type { Context } from "koa";
import type { DecodedBatch } from "../services/lookups.js";
import type { AnswerBytes } from "./answer-bytes.js";
import { JSON_CONTENT_TYPE } from "./answer-writer.js";
import { jsonEncoding } from "./json-encoding.js";

const itemJson = jsonEncoding(BatchItem);
const summaryJson = jsonEncoding(BatchSummary);

// The answer's two fields, in the order BatchResult declares them (the order JSON.stringify would write).
const [RESULTS, SUMMARY] = Object.keys(BatchResult.shape) as ["results", "summary"];
const OPEN = `{${JSON.stringify(RESULTS)}:[`;
const CLOSE_RESULTS = `],${JSON.stringify(SUMMARY)}:`;

/** The batch answer's two forms: the BatchResult JSON, or CSV with one lookup row per input (docs/api.md). */
export type BatchAnswerForm = "json" | "csv";

/** The Content-Type of each form. */
export const BATCH_CONTENT_TYPE: Record<BatchAnswerForm, string> = { json: JSON_CONTENT_TYPE, csv: "text/csv; charset=utf-8; header=present" };
const CSV_HEADER = csvLine(LOOKUP_ROW_COLUMNS);

/** CSV when the request's Accept prefers text/csv to application/json; JSON otherwise (no Accept, any other). */
export function batchAnswerForm(ctx: Context): BatchAnswerForm {
  return ctx.get("Accept") !== "" && ctx.accepts("application/json", "text/csv") === "text/csv" ? "csv" : "json";
}

/**
 * Writes a batch's answer into `bytes` as its items come from `items`, each encoded as it arrives, so no
 * result lives past its turn. As JSON, the bytes are those of JSON.stringify(BatchResult); as CSV, the
 * header line and each item's lookup row (core's lookupRowCsv). Answers what `items` returned when done.
 */
export function writeBatchAnswer(items: Iterator<BatchItem, DecodedBatch>, form: BatchAnswerForm, bytes: AnswerBytes): DecodedBatch {
  let step = items.next();
  if (form === "csv") {
    bytes.add(CSV_HEADER);
    for (; !step.done; step = items.next()) bytes.add(lookupRowCsv(step.value) + "\n");
    return step.value;
  }
  bytes.add(OPEN);
  for (let first = true; !step.done; step = items.next(), first = false) bytes.add(first ? itemJson(step.value) : "," + itemJson(step.value));
  bytes.add(CLOSE_RESULTS + summaryJson(step.value.summary) + "}");
  return step.value;
}
