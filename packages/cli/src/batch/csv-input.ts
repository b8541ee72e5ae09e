import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { PassThrough, type Readable } from "node:stream";
import { CsvRecordReader, FileTextDecoder, UnreadableFileText, type CsvLayout } from "@iccid/core/grammar";
import { CliError, fileProblem } from "../errors.js";
import { detectLayout } from "./layout.js";
import { recordChunks } from "./record-chunks.js";

export interface CsvInput {
  /** How the file is laid out (core's rule, shared with the account page's upload). */
  layout: CsvLayout;
  /** The data records (the header, if any, excluded), in file order, in chunks. */
  chunks: AsyncGenerator<string[][]>;
  /** Bytes of the source read so far, and its size when it is a regular file (for the ETA). */
  bytesRead(): number;
  /**
   * Characters read so far that were not UTF-8, read as U+FFFD. The first block of a file is refused
   * when it is not UTF-8 (core's FileTextDecoder.of); a later block is read on, with its cells so altered.
   */
  notUtf8(): number;
  totalBytes: number | undefined;
  /** Stops reading (Ctrl-C): releases the file and the parser. */
  close(): void;
}

/** The error for an input that cannot be read. */
function unreadable(path: string, error: NodeJS.ErrnoException): CliError {
  return new CliError(`cannot read ${path}: ${fileProblem(error, "no such file")}`);
}

async function openSource(path: string, stdin: Readable): Promise<{ source: Readable; size: number | undefined; pass?: PassThrough }> {
  // stdin is read through a pass-through of its own, which close() can end without closing stdin itself.
  if (path === "-") {
    const pass = stdin.pipe(new PassThrough());
    return { source: pass, size: undefined, pass };
  }
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new CliError(`${path} is a directory, not a CSV file`);
    return { source: createReadStream(path, { highWaterMark: 64 * 1024 }), size: info.isFile() ? info.size : undefined };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw unreadable(path, error as NodeJS.ErrnoException);
  }
}

/**
 * Opens a CSV (or `-` for stdin) as a stream of records: a UTF-8 BOM is dropped, CRLF and LF both end a
 * record, fields are separated by `separator` (detected from the first line when not given: core's
 * CsvRecordReader), quoted fields may hold separators, quotes and line breaks, rows may be shorter or
 * longer than the header, and blank lines and rows whose every cell is empty or blank are skipped. The
 * layout is decided from the first two records. The bytes are read on demand (nothing is read that the
 * caller has not asked for) and parsed by CsvRecordReader, a block of records per block of bytes.
 */
export async function openCsvInput(path: string, column: string | undefined, separator: string | undefined, stdin: Readable): Promise<CsvInput> {
  const { source, size, pass } = await openSource(path, stdin);
  let bytes = 0;
  let decoder: FileTextDecoder | undefined;
  let readError: unknown;
  source.on("error", (error) => (readError ??= unreadable(path, error)));

  async function* parse(): AsyncGenerator<string[][]> {
    const reader = new CsvRecordReader(separator ?? "detect", { skipEmptyRecords: true });
    try {
      for await (const blocks of recordChunks<Buffer | string>(source, 1 /* one 64 KiB block a step */)) {
        const records: string[][] = [];
        for (const block of blocks) {
          if (typeof block === "string") {
            reader.write(block, false, records);
            continue;
          }
          decoder ??= FileTextDecoder.of(block, path === "-" ? "stdin" : path);
          bytes += block.length;
          reader.write(decoder.decode(block), false, records);
        }
        if (records.length > 0) yield records;
      }
    } catch (error) {
      throw readError ?? error;
    }
    if (readError) throw readError;
    const last: string[][] = [];
    reader.write(decoder?.decode() ?? "", true, last);
    if (last.length > 0) yield last;
  }

  const all = parse();
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
  const layout: CsvLayout = first ? detectLayout(first, head[1], column) : { hasHeader: false, columns: [], iccidIndex: 0 };
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
    notUtf8: () => decoder?.notUtf8 ?? 0,
    totalBytes: size,
    close() {
      if (pass) stdin.unpipe(pass);
      source.destroy();
    },
  };
}

function wrapParseError(error: unknown, path: string): unknown {
  if (error instanceof CliError || !(error instanceof Error)) return error;
  if (error instanceof UnreadableFileText) return new CliError(error.message);
  const where = path === "-" ? "stdin" : path;
  return new CliError(`${where} is not readable as CSV: ${error.message}`);
}
