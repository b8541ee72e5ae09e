import { answersHeader } from "@iccid/core/grammar";
import type { BatchAllItem, CsvRows, RowOutcome } from "@iccid/sdk";
import { csvText } from "../output/csv.js";
import type { BatchFormat } from "./resume.js";
import type { TextSink } from "./sink.js";

const COMMA = 44;
const LF = 10;

/** The answered rows of a chunk as the writer reads them (the SDK's CsvRows). */
export type AnsweredRows = Pick<CsvRows, "bytes" | "rowStart" | "rowEnd">;

/**
 * Formats rows (input cells plus outcome) into CSV or JSONL and hands them to the sinks: every row to
 * `out`, failed rows to `errors` as well. Rows arrive in input order and leave in it. A CSV row is the
 * input's cells encoded into the sink's block, then the server's own bytes of the lookup row copied after
 * them (no per-row arrays, strings or objects); the sinks gather rows into large writes.
 */
export class BatchWriter {
  private readonly width: number;
  /** Rows longer than the header: their extra cells have no column to go in and are left out. */
  longRows = 0;

  constructor(
    readonly format: BatchFormat,
    private readonly columns: readonly string[],
    private readonly out: TextSink,
    private readonly errors: TextSink | undefined,
  ) {
    this.width = columns.length;
  }

  /** The CSV header line (nothing for JSONL), for a fresh output file. */
  writeHeader(sink: TextSink): void {
    if (this.format === "csv") void sink.write(csvText([answersHeader(this.columns)]));
  }

  /** Adds row `i` of a CSV chunk; returns a promise only when a block went to a sink that asked to wait (backpressure). */
  addCsv(cells: readonly string[], rows: AnsweredRows, i: number, outcome: RowOutcome): Promise<void> | undefined {
    const out = this.out;
    const start = out.pos;
    // Ragged rows are squared to the header's width so that result columns always line up.
    for (let c = 0; c < this.width; c++) {
      const cell = cells[c];
      if (cell !== undefined) out.putCell(cell);
      out.putByte(COMMA);
    }
    out.putBytes(rows.bytes, rows.rowStart(i), rows.rowEnd(i));
    out.putByte(LF);
    return this.endRow(cells, outcome === "failed", start);
  }

  /** Adds one JSONL row; returns a promise only when a sink asked to wait, as addCsv. */
  addJson(row: number, cells: readonly string[], item: BatchAllItem): Promise<void> | undefined {
    const start = this.out.pos;
    this.out.put(this.jsonLine(row, cells, item));
    return this.endRow(cells, !item.ok, start);
  }

  /** Flushes both sinks: afterwards the files hold whole rows only. */
  async flush(): Promise<void> {
    await this.out.flush();
    await this.errors?.flush();
  }

  /** Ends the row written from `start`: counted if too long, copied to the errors sink if it failed. */
  private endRow(cells: readonly string[], failed: boolean, start: number): Promise<void> | undefined {
    if (cells.length > this.width) this.longRows++;
    const errors = failed ? this.errors : undefined;
    errors?.copyFrom(this.out, start);
    const a = this.out.endRow();
    const b = errors?.endRow();
    return a && b ? Promise.all([a, b]).then(() => undefined) : (a ?? b);
  }

  private jsonLine(row: number, cells: readonly string[], item: BatchAllItem): string {
    const input: Record<string, string> = {};
    for (let i = 0; i < this.width; i++) input[this.columns[i]!] = cells[i] ?? "";
    const body = item.ok ? { ok: true, result: item.result } : { ok: false, error: item.error };
    return JSON.stringify({ row, input, ...body }) + "\n";
  }
}
