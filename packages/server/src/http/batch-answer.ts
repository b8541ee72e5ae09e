import type { ParameterizedContext } from "koa";
import type { ChargedBatch } from "../services/batch-tally.js";
import type { AppState } from "./state.js";

/**
 * A batch answer's CSV form, which a route declares beside its JSON schema: the header line and the row
 * of one item, each line ending in "\n". Where the item type is not known (the route table), `CsvForm<never>`.
 */
export interface CsvForm<I> {
  header: string;
  row: (item: I) => string;
}

const CSV_CONTENT_TYPE = "text/csv; charset=utf-8; header=present";

/**
 * Answers a batch with the items `batch` makes and the summary it returns when they are done: as JSON,
 * `{ results, summary }`; as CSV, when the route declares a CSV form (`response.csv`) and the request's
 * Accept prefers text/csv to application/json, the header line and each item's row. The answer is set
 * only once the batch's charge, which `batch` started when its items were done, is made: a refused charge
 * throws, and the answer is that problem.
 */
export async function answerBatch<I>(ctx: ParameterizedContext<AppState>, batch: Iterator<I, ChargedBatch>): Promise<void> {
  const csv = ctx.state.declared?.csv as CsvForm<I> | undefined;
  const form = csv && ctx.get("Accept") !== "" && ctx.accepts("application/json", "text/csv") === "text/csv" ? csv : undefined;
  const results: I[] = [];
  let step = batch.next();
  for (; !step.done; step = batch.next()) results.push(step.value);
  const { summary, charged } = step.value;
  await charged;
  if (csv) ctx.set("Vary", "Accept");
  if (form) {
    ctx.set("Content-Type", CSV_CONTENT_TYPE);
    ctx.body = form.header + results.map(form.row).join("");
  } else {
    ctx.body = { results, summary };
  }
}
