import type { BatchAllItem } from "@iccid/sdk";
import { csvCell, csvText } from "../output/csv.js";
import { RESULT_COLUMNS, resultCsv } from "../output/lookup-columns.js";
import type { BatchFormat } from "./resume.js";
import type { TextSink } from "./sink.js";

/**
 * The output header: the input's columns, then the result columns. A result column whose name the
 * input already uses (an input "iccid" column is common) gets a `lookup_` prefix, so names stay unique.
 */
export function outputHeader(inputColumns: readonly string[]): string[] {
  const taken = new Set(inputColumns);
  return [...inputColumns, ...RESULT_COLUMNS.map((name) => (taken.has(name) ? `lookup_${name}` : name))];
}

/** One batch answer, as batchAll hands it out. */
export type BatchOutcome = BatchAllItem;

/**
 * Formats rows (input cells plus outcome) into CSV or JSONL and hands them to the sinks: every row to
 * `out`, failed rows to `errors` as well. Rows arrive in input order and leave in it. A row is built as
 * one string, straight from the answer (no per-row arrays or outcome objects); the sinks gather rows into
 * large writes.
 */
export class BatchWriter {
  private readonly width: number;
  /** Rows longer than the header: their extra cells have no column to go in and are left out. */
  longRows = 0;

  constructor(
    private readonly format: BatchFormat,
    private readonly columns: readonly string[],
    private readonly out: TextSink,
    private readonly errors: TextSink | undefined,
  ) {
    this.width = columns.length;
  }

  /** The CSV header line (nothing for JSONL), for a fresh output file. */
  writeHeader(sink: TextSink): void {
    if (this.format === "csv") void sink.write(csvText([outputHeader(this.columns)]));
  }

  /** Adds one row; returns a promise only when a block went to a sink that asked to wait (backpressure). */
  add(row: number, cells: readonly string[], outcome: BatchOutcome): Promise<void> | undefined {
    if (cells.length > this.width) this.longRows++;
    let line: string;
    if (this.format === "jsonl") {
      line = this.jsonLine(row, cells, outcome);
    } else {
      // Ragged rows are squared to the header's width so that result columns always line up.
      line = "";
      for (let i = 0; i < this.width; i++) line += `${csvCell(cells[i] ?? "")},`;
      line += `${resultCsv(outcome)}\n`;
    }
    const a = this.out.write(line);
    const b = outcome.ok ? undefined : this.errors?.write(line);
    return a && b ? Promise.all([a, b]).then(() => undefined) : (a ?? b);
  }

  /** Flushes both sinks: afterwards the files hold whole rows only. */
  async flush(): Promise<void> {
    await this.out.flush();
    await this.errors?.flush();
  }

  private jsonLine(row: number, cells: readonly string[], outcome: BatchOutcome): string {
    const input: Record<string, string> = {};
    for (let i = 0; i < this.width; i++) input[this.columns[i]!] = cells[i] ?? "";
    const body = outcome.ok ? { ok: true, result: outcome.result } : { ok: false, error: outcome.error };
    return JSON.stringify({ row, input, ...body }) + "\n";
  }
}
