import { rowOutcome, type IccidClient, type RowOutcome } from "@iccid/sdk";
import type { CsvInput } from "./csv-input.js";
import type { Progress } from "./progress.js";
import type { BatchWriter } from "./writer.js";

export interface BatchTally extends Record<RowOutcome, number> {
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
 * Streams the input's ICCID column through the SDK's batch streaming and writes each row as its answer
 * comes back. It works a block at a time on both sides: the CSV records come in blocks, their ICCIDs go to
 * the SDK as one array per block, and each answered chunk (up to 1000 rows) comes back whole, so the loops
 * below await once per chunk, not once per row. CSV output asks for the server's CSV answer and copies its
 * rows' bytes (batchAllCsv); JSONL takes the JSON items (batchAllChunks). The answers come exactly once per
 * ICCID given, in order, so a FIFO of the record blocks in flight pairs every answer with its row. Memory
 * is bounded by the SDK's window (it reads the source only a few chunks ahead of what this loop has taken)
 * plus the sinks' buffers, whatever the file's length.
 */
export async function runPipeline(options: PipelineOptions, tally: BatchTally): Promise<void> {
  const { input, client, writer, progress } = options;
  const column = input.layout.iccidIndex;
  const inFlight: string[][][] = [];
  const total = input.totalBytes;
  let read = 0;
  // Bytes read run ahead of rows done (parser buffer, the SDK's window); scaling by done/read corrects it.
  const fraction = (done: number) => (total ? (input.bytesRead() / total) * (done / Math.max(1, read)) : undefined);

  async function* iccids(): AsyncGenerator<string[]> {
    let skip = options.skip;
    for await (let block of input.chunks) {
      read += block.length;
      if (skip > 0) {
        const skipped = Math.min(skip, block.length);
        skip -= skipped;
        tally.skipped += skipped;
        if (skipped === block.length) continue;
        block = block.slice(skipped);
      }
      const values = new Array<string>(block.length);
      for (let i = 0; i < block.length; i++) values[i] = block[i]![column] ?? "";
      inFlight.push(block);
      yield values;
    }
  }

  let block: string[][] = [];
  let at = 0;
  /** The input cells of the next row to write, counted in the tally by its outcome. */
  function nextRow(outcome: RowOutcome): string[] {
    if (at >= block.length) {
      block = inFlight.shift()!;
      at = 0;
    }
    tally[outcome]++;
    tally.rows++;
    return block[at++]!;
  }

  /** Writes every row of every answered chunk, whichever form the chunks come in. */
  async function writeAll<C>(chunks: AsyncIterable<C>, rows: (chunk: C) => number, outcome: (chunk: C, i: number) => RowOutcome, add: RowWriter<C>) {
    for await (const chunk of chunks) {
      for (let i = 0, n = rows(chunk); i < n; i++) {
        const of = outcome(chunk, i);
        const wait = add(nextRow(of), chunk, i, of);
        if (wait) await wait;
      }
      progress.update(tally.rows, fraction(tally.skipped + tally.rows));
    }
  }

  const batchOptions = { concurrency: options.concurrency, signal: options.signal };
  if (writer.format === "csv") {
    await writeAll(
      client.iccid.batchAllCsv(iccids(), batchOptions),
      (rows) => rows.length,
      (rows, i) => rows.outcome(i),
      (cells, rows, i, outcome) => writer.addCsv(cells, rows, i, outcome),
    );
  } else {
    await writeAll(
      client.iccid.batchAllChunks(iccids(), batchOptions),
      (items) => items.length,
      (items, i) => rowOutcome(items[i]!),
      (cells, items, i) => writer.addJson(tally.skipped + tally.rows, cells, items[i]!),
    );
  }
}

type RowWriter<C> = (cells: readonly string[], chunk: C, i: number, outcome: RowOutcome) => Promise<void> | undefined;
