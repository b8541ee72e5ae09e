import { BatchResult, BatchSummary } from "@iccid/core";
import type { Context, ParameterizedContext } from "koa";
import type { ChargedBatch } from "../services/batch-tally.js";
import { AnswerBytes } from "./answer-bytes.js";
import { JSON_CONTENT_TYPE } from "./answer-writer.js";
import type { CsvForm } from "./csv-form.js";
import { jsonEncoding } from "./json-encoding.js";
import type { AppState } from "./state.js";

const summaryJson = jsonEncoding(BatchSummary);
// Items are encoded by JSON.stringify a run at a time, one call for a run rather than one per item, and a
// run's text goes into the answer's buffer as it is (AnswerBytes takes a piece of 32K characters or more
// without joining it to others). The first run is FIRST_RUN_ITEMS long; each after it is sized from the
// one before to about RUN_CHARS characters, and holds at most MAX_RUN_ITEMS: long enough that the calls
// are few and a run of results goes in whole, short enough that a run stays below the size from which V8
// allocates a string apart (128 KiB), which costs far more to make, even where short items (failed ones)
// give way to the longest results.
const RUN_CHARS = 64 * 1024;
const FIRST_RUN_ITEMS = 64;
const MAX_RUN_ITEMS = 96;

// The answer's two fields, in the order BatchResult declares them (the order JSON.stringify would write).
const [RESULTS, SUMMARY] = Object.keys(BatchResult.shape) as ["results", "summary"];
const OPEN = `{${JSON.stringify(RESULTS)}:[`;
const CLOSE_RESULTS = `],${JSON.stringify(SUMMARY)}:`;

const CSV_CONTENT_TYPE = "text/csv; charset=utf-8; header=present";

/** CSV when the request's Accept prefers text/csv to application/json; JSON otherwise (no Accept, any other). */
function prefersCsv(ctx: Context): boolean {
  return ctx.get("Accept") !== "" && ctx.accepts("application/json", "text/csv") === "text/csv";
}

/**
 * Answers a batch, written as its items come from `batch`, so that no item lives past its run: as JSON,
 * the bytes of JSON.stringify(BatchResult) (the summary, which `batch` returns when its items are done,
 * last); as CSV, when the route declares a CSV form (`response.csv`) and the request's Accept prefers it,
 * the header line and each item's row. The answer goes out once the batch's charge, which `batch` started when its items were done,
 * is made. The bytes are given back when the response closes, or at once when the charge is refused.
 */
export async function answerBatch<I>(ctx: ParameterizedContext<AppState>, batch: Iterator<I, ChargedBatch>): Promise<void> {
  // The route's form is of the items its own batch makes.
  const csv = ctx.state.declared?.csv as CsvForm<I> | undefined;
  const form = csv && prefersCsv(ctx) ? csv : undefined;
  const bytes = new AnswerBytes(ctx.res);
  try {
    await writeBatchAnswer(batch, bytes, form).charged;
  } catch (error) {
    bytes.discard(); // refused (over the quota), or the batch failed: the bytes are never read
    throw error;
  }
  if (csv) ctx.set("Vary", "Accept");
  ctx.set("Content-Type", form ? CSV_CONTENT_TYPE : JSON_CONTENT_TYPE);
  ctx.body = bytes.bytes();
}

/** Writes the items of `batch` into `bytes`, as CSV in the given form or else as JSON; answers what `batch` returned when done. */
export function writeBatchAnswer<I, T extends { summary: BatchSummary }>(batch: Iterator<I, T>, bytes: AnswerBytes, csv?: CsvForm<I>): T {
  if (!csv) return writeJsonBatch(batch, bytes);
  let step = batch.next();
  bytes.add(csv.header);
  for (; !step.done; step = batch.next()) bytes.add(csv.row(step.value));
  return step.value;
}

/** Writes a batch as `{"results":[…],"summary":…}`, its items a run at a time as they come; answers what `batch` returned. */
function writeJsonBatch<I, T extends { summary: BatchSummary }>(batch: Iterator<I, T>, bytes: AnswerBytes): T {
  let step = batch.next();
  bytes.add(OPEN);
  const run: I[] = [];
  let runItems = FIRST_RUN_ITEMS;
  let separator = "";
  const writeRun = () => {
    // The run's array without its brackets: its items and the commas between them.
    const json = JSON.stringify(run);
    bytes.add(separator);
    bytes.add(json.slice(1, -1));
    separator = ",";
    runItems = Math.max(1, Math.min(MAX_RUN_ITEMS, Math.floor((run.length * RUN_CHARS) / json.length)));
    run.length = 0;
  };
  for (; !step.done; step = batch.next()) if (run.push(step.value) >= runItems) writeRun();
  if (run.length > 0) writeRun();
  bytes.add(CLOSE_RESULTS + summaryJson(step.value.summary) + "}");
  return step.value;
}
