import { BatchItem, BatchResult, BatchSummary, csvLine, LOOKUP_ROW_COLUMNS, lookupRowCsv } from "@iccid/core";
import type { Context } from "koa";
import type { ChargedBatch } from "../services/batch-tally.js";
import { AnswerBytes } from "./answer-bytes.js";
import { JSON_CONTENT_TYPE } from "./answer-writer.js";
import { jsonEncoding } from "./json-encoding.js";

const summaryJson = jsonEncoding(BatchSummary);
// Items are encoded by JSON.stringify this many at a time: one call writes their JSON as one flat string,
// which goes into the answer's buffer as it is, where the schema encoder's text per item is a tree of
// pieces that each answer would walk again to copy; a run of this many is about one piece of AnswerBytes.
const ITEMS_PER_RUN = 64;

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
 * Answers a batch in the form its Accept asks for, written as its items come from `batch`, encoded a run
 * of ITEMS_PER_RUN at a time as they arrive, so no result lives past its run. As JSON, the bytes are those of JSON.stringify(BatchResult)
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
  if (form === "json") return writeJsonBatch(batch, bytes);
  let step = batch.next();
  bytes.add(CSV_HEADER);
  for (; !step.done; step = batch.next()) bytes.add(lookupRowCsv(step.value) + "\n");
  return step.value;
}

/** Writes a batch as `{"results":[…],"summary":…}`, its items a run at a time as they come; answers what `batch` returned. */
function writeJsonBatch<I, T extends { summary: BatchSummary }>(batch: Iterator<I, T>, bytes: AnswerBytes): T {
  let step = batch.next();
  bytes.add(OPEN);
  const run: I[] = [];
  let separator = "";
  const writeRun = () => {
    // The run's array without its brackets: its items and the commas between them.
    const json = JSON.stringify(run);
    bytes.add(separator);
    bytes.add(json.slice(1, -1));
    separator = ",";
    run.length = 0;
  };
  for (; !step.done; step = batch.next()) if (run.push(step.value) === ITEMS_PER_RUN) writeRun();
  if (run.length > 0) writeRun();
  bytes.add(CLOSE_RESULTS + summaryJson(step.value.summary) + "}");
  return step.value;
}

/**
 * Answers a batch whose answer has JSON only (the EID batch): the same shape and the same way as an ICCID
 * batch's JSON; the answer goes out once the charge is made.
 */
export async function answerJsonBatch<I>(ctx: Context, batch: Iterator<I, ChargedBatch>): Promise<void> {
  const bytes = new AnswerBytes(ctx.res);
  await writeJsonBatch(batch, bytes).charged;
  ctx.set("Content-Type", JSON_CONTENT_TYPE);
  ctx.body = bytes.bytes();
}
