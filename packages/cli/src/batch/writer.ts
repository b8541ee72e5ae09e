import type { BatchAllItem } from "@iccid/sdk";
import { csvText } from "../output/csv.js";
import { LOOKUP_ROW, RESULT_COLUMNS } from "../output/lookup-columns.js";
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

const COMMA = 44;
const LF = 10;

// LOOKUP_ROW's getters as two flat lists, walked once per row: the batch CSV is the same row as every
// other format, encoded straight into the sink's block (no array or string per row).
const OF_RESULT = LOOKUP_ROW.map((column) => column.ofResult);
const OF_FAILURE = LOOKUP_ROW.map((column) => column.ofFailure);

/** The LOOKUP_ROW cells of one outcome, comma-separated as csvLine joins them, encoded into the sink. */
function putResult(out: TextSink, outcome: BatchOutcome): void {
  if (outcome.ok) putCells(out, OF_RESULT, outcome.result);
  else putCells(out, OF_FAILURE, outcome);
}

function putCells<T>(out: TextSink, getters: ReadonlyArray<(value: T) => string>, value: T): void {
  out.putCell(getters[0]!(value));
  for (let i = 1; i < getters.length; i++) {
    out.putByte(COMMA);
    out.putCell(getters[i]!(value));
  }
}

/** One batch answer, as batchAll hands it out. */
export type BatchOutcome = BatchAllItem;

/**
 * Formats rows (input cells plus outcome) into CSV or JSONL and hands them to the sinks: every row to
 * `out`, failed rows to `errors` as well. Rows arrive in input order and leave in it. A CSV row is encoded
 * straight from the answer into the sink's block (no per-row arrays, strings or outcome objects); the
 * sinks gather rows into large writes.
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
    const out = this.out;
    const errors = outcome.ok ? undefined : this.errors;
    const start = out.pos;
    if (this.format === "jsonl") {
      out.put(this.jsonLine(row, cells, outcome));
    } else {
      // Ragged rows are squared to the header's width so that result columns always line up.
      for (let i = 0; i < this.width; i++) {
        const cell = cells[i];
        if (cell !== undefined) out.putCell(cell);
        out.putByte(COMMA);
      }
      putResult(out, outcome);
      out.putByte(LF);
    }
    errors?.copyFrom(out, start);
    const a = out.endRow();
    const b = errors?.endRow();
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
