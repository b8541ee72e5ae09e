import { csvText } from "../output/csv.js";
import { RESULT_COLUMNS, resultCells, type LookupOutcome } from "../output/lookup-columns.js";
import type { BatchFormat } from "./resume.js";
import type { TextSink } from "./sink.js";

/** Rows formatted together: CSV quoting runs once per this many rows rather than once per row. */
const ROWS_PER_BLOCK = 256;

/**
 * The output header: the input's columns, then the result columns. A result column whose name the
 * input already uses (an input "iccid" column is common) gets a `lookup_` prefix, so names stay unique.
 */
export function outputHeader(inputColumns: readonly string[]): string[] {
  const taken = new Set(inputColumns);
  return [...inputColumns, ...RESULT_COLUMNS.map((name) => (taken.has(name) ? `lookup_${name}` : name))];
}

/**
 * Formats rows (input cells plus outcome) into CSV or JSONL and hands whole blocks to the sinks: every
 * row to `out`, failed rows to `errors` as well. Rows arrive in input order and leave in it.
 */
export class BatchWriter {
  private outBlock: string[][] = [];
  private errorBlock: string[][] = [];
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
  add(row: number, cells: readonly string[], outcome: LookupOutcome): Promise<void> | undefined {
    if (cells.length > this.width) this.longRows++;
    if (this.format === "jsonl") {
      const line = this.jsonLine(row, cells, outcome);
      const a = this.out.write(line);
      const b = outcome.ok ? undefined : this.errors?.write(line);
      return a && b ? Promise.all([a, b]).then(() => undefined) : (a ?? b);
    }
    // Ragged rows are squared to the header's width so that result columns always line up.
    const record = resultCells(outcome, this.width);
    for (let i = 0; i < this.width; i++) record[i] = cells[i] ?? "";
    this.outBlock.push(record);
    if (!outcome.ok && this.errors) this.errorBlock.push(record);
    return this.outBlock.length >= ROWS_PER_BLOCK ? this.writeBlocks() : undefined;
  }

  /** Writes what is pending and flushes both sinks: afterwards the files hold whole rows only. */
  async flush(): Promise<void> {
    await this.writeBlocks();
    await this.out.flush();
    await this.errors?.flush();
  }

  private async writeBlocks(): Promise<void> {
    const out = this.outBlock;
    const errors = this.errorBlock;
    this.outBlock = [];
    this.errorBlock = [];
    if (out.length > 0) await this.out.write(csvText(out));
    if (errors.length > 0 && this.errors) await this.errors.write(csvText(errors));
  }

  private jsonLine(row: number, cells: readonly string[], outcome: LookupOutcome): string {
    const input: Record<string, string> = {};
    for (let i = 0; i < this.width; i++) input[this.columns[i]!] = cells[i] ?? "";
    const body = outcome.ok ? { ok: true, result: outcome.result } : { ok: false, error: outcome.error };
    return JSON.stringify({ row, input, ...body }) + "\n";
  }
}
