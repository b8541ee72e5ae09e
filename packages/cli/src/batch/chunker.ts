import { BATCH_MAX_ITEMS } from "@iccid/sdk";
import { CliError } from "../errors.js";
import type { ChunkAnswers } from "./answers.js";

/** Rows of the input answered by an earlier run and kept in the resume state, to be written, not asked for. */
export interface StoredChunk {
  /** The input data row (0-based) of its first row. */
  start: number;
  /** The ICCID cell of each of its rows, to check the input is the one answered. */
  iccids: readonly string[];
  answers: ChunkAnswers;
}

/** A run of consecutive input rows that goes to the server as one batch request, or comes from the resume state. */
export interface Chunk {
  /** The input data row (0-based) of its first row. */
  start: number;
  /** The input cells of each row. */
  cells: string[][];
  /** The ICCID cell of each row: what is asked for. */
  iccids: string[];
  /** The answers an earlier run kept for exactly these rows. */
  stored?: ChunkAnswers;
}

export interface ChunkerOptions {
  /** The column that holds the ICCIDs. */
  column: number;
  /** Rows at the start already in the output: not asked for again. */
  skip: number;
  /**
   * Chunks answered by an earlier run, in input order, none before `skip`. Each one taken out of it is
   * handed out whole, and the requests around it stop at its edges.
   */
  stored: StoredChunk[];
  /** Called with the number of rows skipped, as they are passed over. */
  onSkip?: (rows: number) => void;
  size?: number;
}

/**
 * Cuts the input's record blocks into chunks of up to `size` rows (the batch endpoint's maximum), in
 * input order: the rows after `skip`, with the rows of each stored chunk handed out as that chunk.
 */
export async function* chunksOf(blocks: AsyncIterable<string[][]>, options: ChunkerOptions): AsyncGenerator<Chunk> {
  const { column, stored, size = BATCH_MAX_ITEMS } = options;
  let skip = options.skip;
  let row = 0;
  let chunk: Chunk | undefined;
  for await (const block of blocks) {
    let from = 0;
    if (skip > 0) {
      from = Math.min(skip, block.length);
      skip -= from;
      row += from;
      options.onSkip?.(from);
    }
    for (let i = from; i < block.length; i++) {
      const cells = block[i]!;
      chunk ??= { start: row, cells: [], iccids: [], ...(stored[0]?.start === row ? { stored: stored[0].answers } : {}) };
      chunk.cells.push(cells);
      chunk.iccids.push(cells[column] ?? "");
      row++;
      const next = stored[0];
      const full = chunk.stored ? chunk.cells.length === next!.iccids.length : chunk.cells.length === size || next?.start === row;
      if (!full) continue;
      if (chunk.stored) checkStored(stored.shift()!, chunk);
      yield chunk;
      chunk = undefined;
    }
  }
  if (chunk?.stored) throw new CliError(`the input ends at row ${row}, inside rows an earlier run answered: is it the same file?`);
  if (chunk) yield chunk;
}

function checkStored(stored: StoredChunk, chunk: Chunk): void {
  const i = stored.iccids.findIndex((iccid, at) => iccid !== chunk.iccids[at]);
  if (i >= 0) {
    throw new CliError(`row ${stored.start + i + 1} of the input is not the one an earlier run answered (${JSON.stringify(stored.iccids[i])}): is it the same file?`);
  }
}
