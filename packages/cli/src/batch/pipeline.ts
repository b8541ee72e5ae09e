import type { IccidClient, RowOutcome } from "@iccid/sdk";
import { answerCount, answerOutcome, type ChunkAnswers } from "./answers.js";
import { chunkIdempotencyKey } from "./chunk-key.js";
import { chunksOf, type Chunk, type StoredChunk } from "./chunker.js";
import type { CsvInput } from "./csv-input.js";
import type { Interrupt } from "./interrupt.js";
import type { Progress } from "./progress.js";
import { runWindow } from "./window.js";
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
  /** Rows written from the answers an earlier run kept (`--resume`), not asked for again. */
  restored: number;
  /** Rows answered after stdout's reader went away: charged, but written nowhere. */
  unwritten: number;
}

export interface PipelineOptions {
  input: CsvInput;
  client: IccidClient;
  writer: BatchWriter;
  progress: Progress;
  concurrency: number;
  /** Rows to skip at the start of the input (already in the output). */
  skip: number;
  /** Answers an earlier run kept, in input order, after `skip`; those written are taken out of it. */
  stored: StoredChunk[];
  /** Answered chunks that could not be written (an earlier chunk has no answer) are added here. */
  kept: StoredChunk[];
  /**
   * Its `stop` ends the run (Ctrl-C, or stdout's reader gone): requests on the wire are waited for and
   * written, none is retried; its `signal` ends the requests in flight (a second Ctrl-C); once its output is
   * closed, answers are counted, not written.
   */
  interrupt: Pick<Interrupt, "stop" | "signal" | "outputClosed">;
}

/**
 * Streams the input's rows through the batch endpoint and writes each row with its answer, in input
 * order. The input is cut into chunks of up to 1000 rows (chunker.ts), each chunk is one request and
 * `concurrency` of them are in flight (window.ts, which also keeps every answer the server charged when
 * the run stops early), and each answered chunk is written whole: CSV output copies the bytes of the
 * server's CSV answer (batchAllCsv), JSONL output takes the JSON items (batchAllChunks). Memory is bounded
 * by the chunks in flight plus the sinks' buffers, whatever the file's length.
 */
export async function runPipeline(options: PipelineOptions, tally: BatchTally): Promise<void> {
  const { input, client, writer, progress } = options;
  const { stop, signal } = options.interrupt;
  const total = input.totalBytes;
  let read = 0;
  // Bytes read run ahead of rows done (parser buffer, chunks in flight); scaling by done/read corrects it.
  const fraction = (done: number) => (total ? (input.bytesRead() / total) * (done / Math.max(1, read)) : undefined);

  async function* counted(): AsyncGenerator<string[][]> {
    for await (const block of input.chunks) {
      read += block.length;
      yield block;
    }
  }

  async function ask(chunk: Chunk): Promise<ChunkAnswers> {
    // The chunk's own Idempotency-Key: asked again after a lost answer, it is answered, not charged.
    const key = chunkIdempotencyKey(chunk, writer.format);
    const once = { concurrency: 1, signal, retrySignal: stop, idempotencyKeyOf: () => key };
    if (writer.format === "csv") {
      for await (const rows of client.iccid.batchAllCsv([chunk.iccids], once)) return { kind: "csv", rows };
    } else {
      for await (const items of client.iccid.batchAllChunks([chunk.iccids], once)) return { kind: "jsonl", items };
    }
    throw new Error(`no answer for rows ${chunk.start + 1}-${chunk.start + chunk.iccids.length}`);
  }

  async function write(chunk: Chunk, answers: ChunkAnswers): Promise<void> {
    const n = answerCount(answers);
    if (options.interrupt.outputClosed) {
      tally.unwritten += n;
      return;
    }
    for (let i = 0; i < n; i++) {
      const outcome = answerOutcome(answers, i);
      tally[outcome]++;
      tally.rows++;
      const cells = chunk.cells[i]!;
      const wait = answers.kind === "csv" ? writer.addCsv(cells, answers.rows, i, outcome) : writer.addJson(chunk.start + i + 1, cells, answers.items[i]!);
      if (wait) await wait;
    }
    if (chunk.stored) tally.restored += n;
    const done = tally.skipped + tally.rows;
    progress.update(tally.rows, fraction(done), done);
  }

  const chunks = chunksOf(counted(), {
    column: input.layout.iccidIndex,
    skip: options.skip,
    stored: options.stored,
    onSkip: (rows) => (tally.skipped += rows),
  });
  try {
    await runWindow(chunks, {
      concurrency: options.concurrency,
      ask,
      write,
      keep: (chunk, answers) => options.kept.push({ start: chunk.start, iccids: chunk.iccids, answers }),
      stopping: () => stop.aborted,
    });
  } finally {
    await chunks.return(undefined);
  }
}
