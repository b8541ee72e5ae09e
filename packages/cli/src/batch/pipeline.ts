import type { IccidClient } from "@iccid/sdk";
import type { LookupOutcome } from "../output/lookup-columns.js";
import type { CsvInput } from "./csv-input.js";
import type { Progress } from "./progress.js";
import { RowQueue } from "./row-queue.js";
import type { BatchWriter } from "./writer.js";

export interface BatchTally {
  /** Rows written in this run (skipped rows not counted). */
  rows: number;
  valid: number;
  /** Looked up, but the check digit is wrong (or cannot be checked: hex digits). */
  invalid: number;
  /** No result: the ICCID was malformed or empty. */
  failed: number;
  /** Rows skipped because an earlier run already wrote them (`--resume`). */
  skipped: number;
}

export interface PipelineOptions {
  input: CsvInput;
  client: IccidClient;
  writer: BatchWriter;
  progress: Progress;
  concurrency: number;
  /** Rows to skip at the start of the input (already in the output). */
  skip: number;
  signal: AbortSignal;
}

/**
 * Streams the input's ICCID column through `batchAll` and writes each row as its result comes back.
 * batchAll answers exactly once per ICCID it is given, in order, so a FIFO of the rows in flight pairs
 * every answer with its row. Memory is bounded by batchAll's window (it reads the source only a few
 * chunks ahead of what this loop has taken) plus the writer's block, whatever the file's length.
 */
export async function runPipeline(options: PipelineOptions, tally: BatchTally): Promise<void> {
  const { input, client, writer, progress } = options;
  const column = input.layout.iccidIndex;
  const inFlight = new RowQueue<string[]>();
  const total = input.totalBytes;
  let read = 0;
  // Bytes read run ahead of rows done (parser buffer, batchAll's window); scaling by done/read corrects it.
  const fraction = (done: number) => (total ? (input.bytesRead() / total) * (done / Math.max(1, read)) : undefined);

  async function* iccids(): AsyncGenerator<string> {
    let skip = options.skip;
    for await (const chunk of input.chunks) {
      for (const cells of chunk) {
        read++;
        if (skip > 0) {
          skip--;
          tally.skipped++;
          continue;
        }
        inFlight.push(cells);
        yield cells[column] ?? "";
      }
    }
  }

  const items = client.iccid.batchAll(iccids(), { concurrency: options.concurrency, signal: options.signal });
  for await (const item of items) {
    const cells = inFlight.shift()!;
    const outcome: LookupOutcome = item.ok
      ? { input: item.result.input, ok: true, result: item.result }
      : { input: item.input, ok: false, error: item.error };
    if (!item.ok) tally.failed++;
    else if (item.result.valid) tally.valid++;
    else tally.invalid++;
    tally.rows++;
    const wait = writer.add(tally.skipped + tally.rows, cells, outcome);
    if (wait) await wait;
    progress.update(tally.rows, fraction(tally.skipped + tally.rows));
  }
}
