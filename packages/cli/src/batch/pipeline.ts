import type { IccidClient } from "@iccid/sdk";
import type { CsvInput } from "./csv-input.js";
import type { Progress } from "./progress.js";
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
 * Streams the input's ICCID column through `batchAllChunks` and writes each row as its result comes back.
 * It works a block at a time on both sides: the CSV records come in blocks, their ICCIDs go to the SDK as
 * one array per block, and each answered chunk (up to 1000 items) comes back as one array, so the loop
 * below awaits once per chunk, not once per row. The answers come exactly once per ICCID given, in
 * order, so a FIFO of the record blocks in flight pairs every answer with its row. Memory is bounded by
 * the SDK's window (it reads the source only a few chunks ahead of what this loop has taken) plus the
 * sinks' buffers, whatever the file's length.
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
  const chunks = client.iccid.batchAllChunks(iccids(), { concurrency: options.concurrency, signal: options.signal });
  for await (const items of chunks) {
    for (const item of items) {
      if (at >= block.length) {
        block = inFlight.shift()!;
        at = 0;
      }
      const cells = block[at++]!;
      if (!item.ok) tally.failed++;
      else if (item.result.valid) tally.valid++;
      else tally.invalid++;
      tally.rows++;
      const wait = writer.add(tally.skipped + tally.rows, cells, item);
      if (wait) await wait;
    }
    progress.update(tally.rows, fraction(tally.skipped + tally.rows));
  }
}
