import { rowOutcome, type BatchAllItem, type RowOutcome } from "@iccid/sdk";
import type { AnsweredRows } from "./writer.js";

/** The server's CSV lookup rows of one chunk, as the writer copies them, each with its outcome. */
export type CsvAnswerRows = AnsweredRows & { readonly length: number; outcome(i: number): RowOutcome; text(i: number): string };

/**
 * One chunk's answers in the form the output takes: the server's CSV rows (CSV output) or the batch
 * items (JSONL output). Fresh from the server (the SDK's CsvRows or items) or read back from the resume
 * state, the writer treats both the same.
 */
export type ChunkAnswers = { kind: "csv"; rows: CsvAnswerRows } | { kind: "jsonl"; items: readonly BatchAllItem[] };

export function answerCount(answers: ChunkAnswers): number {
  return answers.kind === "csv" ? answers.rows.length : answers.items.length;
}

export function answerOutcome(answers: ChunkAnswers, i: number): RowOutcome {
  return answers.kind === "csv" ? answers.rows.outcome(i) : rowOutcome(answers.items[i]!);
}
