import { BatchItem, BatchResult, BatchSummary, csvLine, LOOKUP_ROW_COLUMNS, lookupRowCsv } from "@iccid/core";
import type { Context } from "koa";
import type { ChargedBatch } from "../services/lookups.js";
import { AnswerBytes } from "./answer-bytes.js";
import { JSON_CONTENT_TYPE } from "./answer-writer.js";
import { jsonEncoding, type Encode } from "./json-encoding.js";

const itemJson = jsonEncoding(BatchItem);
const summaryJson = jsonEncoding(BatchSummary);

// The answer's two fields, in the order BatchResult declares them (the order JSON.stringify would write).
const [RESULTS, SUMMARY] = Object.keys(BatchResult.shape) as ["results", "summary"];
const OPEN = `{${JSON.stringify(RESULTS)}:[`;
const CLOSE_RESULTS = `],${JSON.stringify(SUMMARY)}:`;

/** The batch answer's two forms: the BatchResult JSON, or CSV with one lookup row per input (docs/api.md). */
export type BatchAnswerForm = "json" | "csv";

const CONTENT_TYPE: Record<BatchAnswerForm, string> = { json: JSON_CONTENT_TYPE, csv: "text/csv; charset=utf-8; header=present" };
const CSV_HEADER = csvLine(LOOKUP_ROW_COLUMNS);

/** CSV when the request's Accept prefers text/csv to application/json; JSON otherwise (no Accept, any other). */
function formOf(ctx: Context): BatchAnswerForm {
  return ctx.get("Accept") !== "" && ctx.accepts("application/json", "text/csv") === "text/csv" ? "csv" : "json";
}

/**
 * Answers a batch in the form its Accept asks for, written as its items come from `batch`, each encoded as
 * it arrives, so no result lives past its turn. As JSON, the bytes are those of JSON.stringify(BatchResult)
 * (the summary, which `batch` returns when its items are done, last); as CSV, the header line and each
 * item's lookup row (core's lookupRowCsv). The answer goes out once the batch's charge, which `batch`
 * started when its items were done, is made. The bytes are given back when the response closes.
 */
export async function answerBatch(ctx: Context, batch: Iterator<BatchItem, ChargedBatch>): Promise<void> {
  const form = formOf(ctx);
  const bytes = new AnswerBytes(ctx.res);
  await writeBatchAnswer(batch, form, bytes).charged;
  ctx.set("Vary", "Accept");
  ctx.set("Content-Type", CONTENT_TYPE[form]);
  ctx.body = bytes.bytes();
}

/** Writes the items of `batch` into `bytes` in the given form; answers what `batch` returned when done. */
export function writeBatchAnswer<T extends { summary: BatchSummary }>(batch: Iterator<BatchItem, T>, form: BatchAnswerForm, bytes: AnswerBytes): T {
  if (form === "json") return writeJsonBatch(batch, itemJson, bytes);
  let step = batch.next();
  bytes.add(CSV_HEADER);
  for (; !step.done; step = batch.next()) bytes.add(lookupRowCsv(step.value) + "\n");
  return step.value;
}

/** Writes a batch as `{"results":[…],"summary":…}`, each item by `encodeItem` as it comes; answers what `batch` returned. */
function writeJsonBatch<I, T extends { summary: BatchSummary }>(batch: Iterator<I, T>, encodeItem: Encode, bytes: AnswerBytes): T {
  let step = batch.next();
  bytes.add(OPEN);
  for (let first = true; !step.done; step = batch.next(), first = false) bytes.add(first ? encodeItem(step.value) : "," + encodeItem(step.value));
  bytes.add(CLOSE_RESULTS + summaryJson(step.value.summary) + "}");
  return step.value;
}

/**
 * Answers a batch whose answer has JSON only (the EID batch): the same shape and the same way as an ICCID
 * batch's JSON, each item encoded by `encodeItem` as it comes; the answer goes out once the charge is made.
 */
export async function answerJsonBatch<I>(ctx: Context, batch: Iterator<I, ChargedBatch>, encodeItem: Encode): Promise<void> {
  const bytes = new AnswerBytes(ctx.res);
  await writeJsonBatch(batch, encodeItem, bytes).charged;
  ctx.set("Content-Type", JSON_CONTENT_TYPE);
  ctx.body = bytes.bytes();
}
