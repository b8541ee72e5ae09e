import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { CsvRecordReader } from "@iccid/core/grammar";
import { CliError } from "../errors.js";

export type BatchFormat = "csv" | "jsonl";

export interface PreviousOutput {
  /** Data rows already written (the CSV header not counted). */
  rows: number;
  /** The CSV header found in the file, to check it belongs to the same input. */
  header: string[] | undefined;
}

/**
 * A run killed without warning may leave half a row at the end; Ctrl-C never does (it flushes whole
 * rows). Cutting back to the last line break makes the file whole again before counting.
 */
async function dropPartialLastLine(path: string, size: number): Promise<void> {
  const handle = await open(path, "r+");
  try {
    const block = Buffer.alloc(64 * 1024);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - block.length);
      const { bytesRead } = await handle.read(block, 0, end - start, start);
      const at = block.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (at >= 0) {
        if (start + at + 1 < size) await handle.truncate(start + at + 1);
        return;
      }
      end = start;
    }
    await handle.truncate(0);
  } finally {
    await handle.close();
  }
}

async function countLines(path: string): Promise<number> {
  let lines = 0;
  for await (const data of createReadStream(path)) {
    const buffer = data as Buffer;
    for (let at = buffer.indexOf(0x0a); at >= 0; at = buffer.indexOf(0x0a, at + 1)) lines++;
  }
  return lines;
}

/** The records of an earlier CSV output, read a block at a time with the reader that reads the input. */
async function countCsv(path: string): Promise<PreviousOutput> {
  const reader = new CsvRecordReader();
  const decoder = new StringDecoder("utf8");
  let header: string[] | undefined;
  let records = 0;
  const count = (text: string, end: boolean) => {
    const out: string[][] = [];
    reader.write(text, end, out);
    header ??= out[0];
    records += out.length;
  };
  for await (const data of createReadStream(path)) count(decoder.write(data as Buffer), false);
  count(decoder.end(), true);
  return { rows: Math.max(0, records - 1), header };
}

/** What an earlier run left in `--out`; undefined when there is no such file yet (a fresh start). */
export async function readPreviousOutput(path: string, format: BatchFormat): Promise<PreviousOutput | undefined> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CliError(`cannot read ${path} to resume: ${(error as Error).message}`);
  }
  if (size === 0) return undefined;
  await dropPartialLastLine(path, size);
  try {
    return format === "jsonl" ? { rows: await countLines(path), header: undefined } : await countCsv(path);
  } catch (error) {
    throw new CliError(`cannot resume from ${path}: it is not a complete ${format.toUpperCase()} file (${(error as Error).message})`);
  }
}
