import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { parse } from "csv-parse";
import { CliError } from "../errors.js";
import { detectLayout, type Layout } from "./layout.js";
import { recordChunks } from "./record-chunks.js";

/** Records per chunk handed downstream; a few batch requests' worth, so chunks stay small in memory. */
const CHUNK_RECORDS = 500;

export interface CsvInput {
  layout: Layout;
  /** The data records (the header, if any, excluded), in file order, in chunks. */
  chunks: AsyncGenerator<string[][]>;
  /** Bytes of the source read so far, and its size when it is a regular file (for the ETA). */
  bytesRead(): number;
  totalBytes: number | undefined;
  /** Stops reading (Ctrl-C): releases the file and the parser. */
  close(): void;
}

async function openSource(path: string, stdin: Readable): Promise<{ source: Readable; size: number | undefined }> {
  if (path === "-") return { source: stdin, size: undefined };
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new CliError(`${path} is a directory, not a CSV file`);
    return { source: createReadStream(path, { highWaterMark: 64 * 1024 }), size: info.isFile() ? info.size : undefined };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Opens a CSV (or `-` for stdin) as a stream of records: a UTF-8 BOM is dropped, CRLF and LF both end a
 * record, quoted fields may hold commas, quotes and line breaks, rows may be shorter or longer than the
 * header, and blank lines are skipped. The layout is decided from the first two records.
 */
export async function openCsvInput(path: string, column: string | undefined, stdin: Readable): Promise<CsvInput> {
  const { source, size } = await openSource(path, stdin);
  let bytes = 0;
  source.on("data", (data: Buffer | string) => (bytes += data.length));
  const parser = parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
  source.on("error", (error) => parser.destroy(new CliError(`cannot read ${path}: ${error.message}`)));
  source.pipe(parser);

  const all = recordChunks<string[]>(parser, CHUNK_RECORDS);
  const head: string[][] = [];
  try {
    while (head.length < 2) {
      const next = await all.next();
      if (next.done) break;
      head.push(...next.value);
    }
  } catch (error) {
    throw wrapParseError(error, path);
  }
  const first = head[0];
  const layout: Layout = first ? detectLayout(first, head[1], column) : { hasHeader: false, columns: [], iccidIndex: 0 };
  const buffered = layout.hasHeader ? head.slice(1) : head;

  async function* chunks(): AsyncGenerator<string[][]> {
    try {
      if (buffered.length > 0) yield buffered;
      for await (const chunk of all) yield chunk;
    } catch (error) {
      throw wrapParseError(error, path);
    }
  }

  return {
    layout,
    chunks: chunks(),
    bytesRead: () => bytes,
    totalBytes: size,
    close() {
      source.unpipe(parser);
      if (source !== stdin) source.destroy();
      parser.destroy();
    },
  };
}

function wrapParseError(error: unknown, path: string): unknown {
  if (error instanceof CliError || !(error instanceof Error)) return error;
  const where = path === "-" ? "stdin" : path;
  return new CliError(`${where} is not readable as CSV: ${error.message}`);
}
