import type { BatchAllChunk, BatchAllItem, BatchAllKept, CsvRows, IccidClient, RowOutcome } from "@iccid/sdk";
import { answerCount, answerOutcome, type ChunkAnswers } from "./answers.js";
import { chunkIdempotencyKey } from "./chunk-key.js";
import { chunksOf, type Chunk, type StoredChunk } from "./chunker.js";
import type { CsvInput } from "./csv-input.js";
import type { Interrupt } from "./interrupt.js";
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
 * Streams the input's rows through the SDK's batch engine and writes each row with its answers, in input
 * order. The input is cut into chunks of up to 1000 rows (chunker.ts, which also cuts at the edges of the
 * answers an earlier run kept); each fresh chunk is one request of `batchAllCsv` (CSV output, the bytes of
 * the server's CSV rows copied) or `batchAllChunks` (JSONL output, the JSON items), `concurrency` of them
 * in flight, and each answered chunk is written whole. The rule it keeps: nothing the server answered (and
 * charged) is thrown away. On a refusal or a stop, no new request starts and those in flight are awaited
 * (the engine's `keep`); the chunks before the first one without answers are written, and the answered
 * chunks after it go to `kept`. Memory is bounded by the chunks in flight plus the sinks' buffers,
 * whatever the file's length.
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
  // The chunks read and not yet written, in input order: the fresh ones with their start in the engine's
  // source, and the stored ones between them.
  const queue: { chunk: Chunk; at?: number }[] = [];
  // Answers of fresh chunks the engine could not hand out in order (after a gap), by their start.
  const kept = new Map<number, ChunkAnswers>();
  let at = 0;
  async function* fresh(): AsyncGenerator<string[]> {
    for await (const chunk of chunks) {
      if (chunk.stored) {
        queue.push({ chunk });
        continue;
      }
      queue.push({ chunk, at });
      at += chunk.iccids.length;
      yield chunk.iccids;
    }
  }
  const chunkAt = (start: number): Chunk => queue.find((entry) => entry.at === start)!.chunk;

  /** Writes the next fresh chunk's answers, after the stored chunks before it. */
  async function writeNext(answers: ChunkAnswers): Promise<void> {
    while (queue[0]!.at === undefined) {
      const { chunk } = queue.shift()!;
      await write(chunk, chunk.stored!);
    }
    await write(queue.shift()!.chunk, answers);
  }

  // The chunk's own Idempotency-Key: asked again after a lost answer, it is answered, not charged.
  const engine = {
    concurrency: options.concurrency,
    signal,
    retrySignal: stop,
    arraysAreChunks: true,
    idempotencyKeyOf: ({ start }: BatchAllChunk) => chunkIdempotencyKey(chunkAt(start), writer.format),
  };
  let failure: { error: unknown } | undefined;
  let writing = false;
  try {
    if (writer.format === "csv") {
      const keep = ({ start, value }: BatchAllKept<CsvRows>) => void kept.set(start, { kind: "csv", rows: value });
      for await (const rows of client.iccid.batchAllCsv(fresh(), { ...engine, keep })) {
        writing = true;
        await writeNext({ kind: "csv", rows });
        writing = false;
      }
    } else {
      const keep = ({ start, value }: BatchAllKept<BatchAllItem[]>) => void kept.set(start, { kind: "jsonl", items: value });
      for await (const items of client.iccid.batchAllChunks(fresh(), { ...engine, keep })) {
        writing = true;
        await writeNext({ kind: "jsonl", items });
        writing = false;
      }
    }
  } catch (error) {
    if (writing) throw error; // the output failed: nothing more can be written
    failure = { error };
  } finally {
    await chunks.return(undefined);
  }
  // What is left: the stored chunks before the first chunk without answers are written; after it, every
  // answered chunk is kept for --resume.
  let gap = false;
  for (const { chunk, at } of queue) {
    const answers = at === undefined ? chunk.stored : kept.get(at);
    if (!answers) gap = true;
    else if (gap) options.kept.push({ start: chunk.start, iccids: chunk.iccids, answers });
    else await write(chunk, answers);
  }
  if (failure) throw failure.error;
}
