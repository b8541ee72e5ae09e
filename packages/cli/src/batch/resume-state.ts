import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { CsvRows, type BatchAllItem, type RowOutcome } from "@iccid/sdk";
import { CliError, UsageError } from "../errors.js";
import type { StoredChunk } from "./chunker.js";
import type { BatchFormat } from "./resume.js";

// The resume state: chunks the server answered (and charged) that could not be written yet, because an
// earlier chunk of the input has no answer (the run stopped on it). It lives beside the output, one JSON
// line per chunk, and `--resume` writes those rows from it instead of asking for them again.

/** Where the resume state of an output file is kept. */
export const resumeStatePath = (out: string) => `${out}.resume.jsonl`;

interface Line {
  format: BatchFormat;
  start: number;
  iccids: string[];
  /** CSV output: the server's lookup row of each ICCID, and its outcome. */
  rows?: string[];
  outcomes?: RowOutcome[];
  /** JSONL output: the batch items. */
  items?: BatchAllItem[];
}

function toLine(chunk: StoredChunk): Line {
  const { start, iccids, answers } = chunk;
  if (answers.kind === "jsonl") return { format: "jsonl", start, iccids: [...iccids], items: [...answers.items] };
  const { rows } = answers;
  const texts: string[] = [];
  const outcomes: RowOutcome[] = [];
  for (let i = 0; i < rows.length; i++) {
    texts.push(rows.text(i));
    outcomes.push(rows.outcome(i));
  }
  return { format: "csv", start, iccids: [...iccids], rows: texts, outcomes };
}

function fromLine(line: Line): StoredChunk {
  const { start, iccids } = line;
  const whole = Number.isInteger(start) && start >= 0 && Array.isArray(iccids) && iccids.length > 0;
  if (whole && line.format === "csv" && line.rows?.length === iccids.length && line.outcomes?.length === iccids.length) {
    return { start, iccids, answers: { kind: "csv", rows: CsvRows.fromTexts(start, line.rows, line.outcomes) } };
  }
  if (whole && line.format === "jsonl" && line.items?.length === iccids.length) return { start, iccids, answers: { kind: "jsonl", items: line.items } };
  throw new Error("a line is not a chunk of answers");
}

/** The chunks kept by an earlier run for the output `out`, in input order; none when there is no state. */
export async function readResumeState(out: string, format: BatchFormat): Promise<StoredChunk[]> {
  const path = resumeStatePath(out);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const chunks: StoredChunk[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
      if (line.format === format) chunks.push(fromLine(line));
    } catch (error) {
      throw new CliError(`${path} is damaged (${(error as Error).message}); delete it to look those rows up again`);
    }
    if (line.format !== format) throw new UsageError(`${path} holds ${line.format} answers; resume with --format ${line.format}`);
  }
  return chunks.sort((a, b) => a.start - b.start);
}

/** Stores the chunks still to be written (none: the state file goes), replacing the file whole. */
export async function writeResumeState(out: string, chunks: readonly StoredChunk[]): Promise<void> {
  const path = resumeStatePath(out);
  if (chunks.length === 0) return rm(path, { force: true });
  const sorted = [...chunks].sort((a, b) => a.start - b.start);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, sorted.map((chunk) => JSON.stringify(toLine(chunk)) + "\n").join(""));
  await rename(temporary, path);
}
