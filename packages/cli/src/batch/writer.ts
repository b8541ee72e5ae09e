import type { BatchAllItem } from "@iccid/sdk";
import { csvCell, csvText } from "../output/csv.js";
import { laterCsv, RESULT_COLUMNS, resultCsv } from "../output/lookup-columns.js";
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

/** The result columns of one outcome, as resultCsv gives them, encoded straight into the sink. */
function putResult(out: TextSink, outcome: BatchOutcome): void {
  if (!outcome.ok) {
    out.put(resultCsv(outcome));
    return;
  }
  const r = outcome.result;
  out.putCell(r.iccid, csvCell);
  out.put(r.valid ? ",true," : ",false,");
  out.putCell(r.checks.luhn, csvCell);
  out.putByte(COMMA);
  out.putCell(String(r.length), csvCell);
  out.putByte(COMMA);
  if (r.calling_code !== null) out.putCell(r.calling_code, csvCell);
  out.putByte(COMMA);
  if (r.country !== null) {
    out.putCell(r.country.iso2, csvCell);
    out.putByte(COMMA);
    out.putCell(r.country.name, csvCell);
  } else {
    out.putByte(COMMA);
  }
  out.putByte(COMMA);
  if (r.issuer !== null) {
    out.putCell(r.issuer.prefix, csvCell);
    out.putByte(COMMA);
    out.putCell(r.issuer.name, csvCell);
    out.putByte(COMMA);
    out.putCell(r.issuer.source, csvCell);
  } else {
    out.put(",,");
  }
  out.putByte(COMMA);
  if (r.account_number !== null) out.putCell(r.account_number, csvCell);
  out.putByte(COMMA);
  if (r.warnings.length > 0) out.putCell(r.warnings.map((w) => w.code).join(";"), csvCell);
  out.put(",,");
  out.put(laterCsv(r));
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
    const out = this.out;
    const errors = outcome.ok ? undefined : this.errors;
    const start = out.pos;
    if (this.format === "jsonl") {
      out.put(this.jsonLine(row, cells, outcome));
    } else {
      // Ragged rows are squared to the header's width so that result columns always line up.
      for (let i = 0; i < this.width; i++) {
        const cell = cells[i];
        if (cell !== undefined) out.putCell(cell, csvCell);
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
