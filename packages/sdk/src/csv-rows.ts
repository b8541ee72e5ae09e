import { csvLine, LOOKUP_ROW_COLUMNS, LOOKUP_ROW_VALID, lookupRowCsv, rowOutcome, type LookupOutcome, type RowOutcome } from "@iccid/core/grammar";
import type { BatchItem } from "@iccid/core/types";
import { invalidResponse, type Call } from "./response-body.js";
import type { HttpResponse } from "./transport.js";

// The batch response as CSV (docs/api.md, "The batch as CSV"): a header line, then one lookup row per ICCID
// sent, in order. Rows are handed out as the response's own bytes, located but not parsed: a file converter
// copies them into its output without a string or an object per row, which is most of what reading the
// JSON response costs.

// Outcomes are kept a byte per row, as their index here.
const OUTCOMES: readonly RowOutcome[] = ["valid", "invalid", "failed"];
const [VALID, INVALID, FAILED] = [0, 1, 2];
const LF = 10;
const COMMA = 44;
const QUOTE = 34;
const T = 116;
const F = 102;

/**
 * One answered chunk of `batchAllCsv`: a lookup row (core's LOOKUP_ROW_COLUMNS, CSV-encoded, no line end)
 * per ICCID of the chunk, in source order. Row `i` is `bytes` from `rowStart(i)` to `rowEnd(i)`.
 */
export class CsvRows {
  constructor(
    /** Source position of the first row. */
    readonly start: number,
    readonly bytes: Buffer,
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    private readonly outcomes: Uint8Array,
  ) {}

  get length(): number {
    return this.outcomes.length;
  }

  rowStart(i: number): number {
    return this.starts[i]!;
  }

  rowEnd(i: number): number {
    return this.ends[i]!;
  }

  /** Row `i`'s bytes (a view, not a copy). */
  row(i: number): Buffer {
    return this.bytes.subarray(this.starts[i], this.ends[i]);
  }

  /** Row `i` as text. */
  text(i: number): string {
    return this.bytes.toString("utf8", this.starts[i], this.ends[i]);
  }

  outcome(i: number): RowOutcome {
    return OUTCOMES[this.outcomes[i]!]!;
  }

  /** The rows of lookups already decoded, in order, written with core's encoder (what the server would send). */
  static fromItems(start: number, items: readonly LookupOutcome[]): CsvRows {
    const n = items.length;
    const [starts, ends, outcomes] = [new Uint32Array(n), new Uint32Array(n), new Uint8Array(n)];
    return new CsvRows(start, encodeRows(items, items.keys(), 0, starts, ends, outcomes), starts, ends, outcomes);
  }

  /** Rows kept as text with their outcomes (a CLI's resume state), located in one buffer like the server's. */
  static fromTexts(start: number, texts: readonly string[], rowOutcomes: readonly RowOutcome[]): CsvRows {
    const n = texts.length;
    const [starts, ends, outcomes] = [new Uint32Array(n), new Uint32Array(n), new Uint8Array(n)];
    const parts = texts.map((text) => Buffer.from(text, "utf8"));
    let at = 0;
    for (let i = 0; i < n; i++) {
      starts[i] = at;
      at += parts[i]!.length;
      ends[i] = at;
      outcomes[i] = OUTCOMES.indexOf(rowOutcomes[i]!);
    }
    return new CsvRows(start, Buffer.concat(parts, at), starts, ends, outcomes);
  }

  /** How many rows have a result (valid or not). */
  get ok(): number {
    let ok = 0;
    for (const outcome of this.outcomes) if (outcome !== FAILED) ok++;
    return ok;
  }
}

const HEADER = Buffer.from(csvLine(LOOKUP_ROW_COLUMNS).slice(0, -1));

/** The outcome a row's `valid` cell tells, from the cell's first byte. */
function outcomeOf(firstByte: number | undefined): number {
  return firstByte === T ? VALID : firstByte === F ? INVALID : FAILED;
}

/**
 * Reads rows off a CSV response: each row's end and its outcome. Most rows hold no quote, and are found with
 * two native searches (the line end and the commas before the `valid` cell); a row with a quoted cell, or
 * every row when a newer server sends more columns than this SDK knows (they are cut off, as a reader
 * that goes by the header would), is walked byte by byte.
 */
class RowScanner {
  #pos: number;
  #nextQuote = -1;

  constructor(
    private readonly body: Buffer,
    start: number,
    /** Cells per row to keep: all of them (Infinity) when the header is exactly this SDK's. */
    private readonly keep: number,
  ) {
    this.#pos = start;
  }

  get done(): boolean {
    return this.#pos >= this.body.length;
  }

  /** The next row: its end (line end excluded) and outcome, written into `ends[at]`/`outcomes[at]`; false at the body's end. */
  next(starts: Uint32Array, ends: Uint32Array, outcomes: Uint8Array, at: number): boolean {
    const body = this.body;
    const pos = this.#pos;
    if (pos >= body.length) return false;
    let lf = body.indexOf(LF, pos);
    if (lf === -1) lf = body.length;
    if (this.#nextQuote < pos && this.#nextQuote !== Infinity) {
      const q = body.indexOf(QUOTE, pos);
      this.#nextQuote = q === -1 ? Infinity : q;
    }
    starts[at] = pos;
    if (this.#nextQuote > lf && this.keep === Infinity) {
      let cell = pos;
      for (let c = 0; c < LOOKUP_ROW_VALID && cell !== 0; c++) cell = body.indexOf(COMMA, cell) + 1;
      outcomes[at] = cell > 0 && cell <= lf ? outcomeOf(body[cell]) : FAILED;
      ends[at] = lf;
      this.#pos = lf + 1;
      return true;
    }
    this.#walk(ends, outcomes, at);
    return true;
  }

  #walk(ends: Uint32Array, outcomes: Uint8Array, at: number): void {
    const body = this.body;
    let i = this.#pos;
    let cell = 0;
    let quoted = false;
    let end = -1;
    outcomes[at] = FAILED;
    for (let atCellStart = true; i < body.length; i++) {
      const b = body[i]!;
      if (atCellStart && cell === LOOKUP_ROW_VALID) outcomes[at] = outcomeOf(b);
      atCellStart = false;
      if (quoted) {
        if (b === QUOTE) quoted = body[i + 1] === QUOTE ? (i++, true) : false;
      } else if (b === QUOTE) quoted = true;
      else if (b === COMMA) {
        cell++;
        atCellStart = true;
        if (cell === this.keep && end === -1) end = i;
      } else if (b === LF) break;
    }
    ends[at] = end === -1 ? i : end;
    this.#pos = i + 1;
    this.#nextQuote = -1;
  }
}

/**
 * The rows of a chunk from its CSV response: `sent` is the chunk offset of each ICCID the response holds a row
 * for, in order; `items` holds the chunk's other items (those the SDK refused before sending), which get
 * rows of their own encoded here. A response off the contract is a ResponseValidationError naming `call`.
 */
export function csvRowsOf(
  call: Call,
  start: number,
  items: readonly (BatchItem | undefined)[],
  sent: readonly number[],
  response: Pick<HttpResponse<Buffer>, "status" | "headers" | "body"> | undefined,
): CsvRows {
  const n = items.length;
  const starts = new Uint32Array(n);
  const ends = new Uint32Array(n);
  const outcomes = new Uint8Array(n);
  let body: Buffer = Buffer.alloc(0);
  if (response) {
    if (!/^text\/csv\b/i.test(response.headers["content-type"] ?? "")) {
      throw invalidResponse(call, response, [{ path: "", message: `expected text/csv, got ${response.headers["content-type"] ?? "no content-type"}` }], "");
    }
    body = response.body;
    const headerEnd = body.indexOf(LF);
    const sameHeader = headerEnd === HEADER.length && body.subarray(0, headerEnd).equals(HEADER);
    const newerHeader = headerEnd > HEADER.length && body[HEADER.length] === COMMA && body.subarray(0, HEADER.length).equals(HEADER);
    if (!sameHeader && !newerHeader) {
      const header = body.toString("utf8", 0, headerEnd === -1 ? Math.min(body.length, 500) : headerEnd);
      throw invalidResponse(call, response, [{ path: "header", message: `expected the columns ${LOOKUP_ROW_COLUMNS.join(",")}…` }], header);
    }
    const rows = new RowScanner(body, headerEnd + 1, sameHeader ? Infinity : LOOKUP_ROW_COLUMNS.length);
    for (let j = 0; j < sent.length; j++) {
      if (!rows.next(starts, ends, outcomes, sent[j]!)) {
        throw invalidResponse(call, response, [{ path: "", message: `expected ${sent.length} rows, got ${j}` }], "");
      }
    }
    if (!rows.done) throw invalidResponse(call, response, [{ path: "", message: `expected ${sent.length} rows, got more` }], "");
  }
  if (sent.length === n) return new CsvRows(start, body, starts, ends, outcomes);
  // The items refused before sending: their rows go after the response's bytes.
  const refused: number[] = [];
  for (let i = 0; i < n; i++) if (items[i]) refused.push(i);
  const bytes = Buffer.concat([body, encodeRows(items, refused, body.length, starts, ends, outcomes)]);
  return new CsvRows(start, bytes, starts, ends, outcomes);
}

/** Encodes the rows of `items[i]` for each `i` of `which` with core's encoder, placed from `base` on; returns their bytes. */
function encodeRows(
  items: readonly (LookupOutcome | undefined)[],
  which: Iterable<number>,
  base: number,
  starts: Uint32Array,
  ends: Uint32Array,
  outcomes: Uint8Array,
): Buffer {
  const lines: string[] = [];
  let at = base;
  for (const i of which) {
    const item = items[i]!;
    const line = lookupRowCsv(item);
    starts[i] = at;
    at += Buffer.byteLength(line);
    ends[i] = at++; // and the line feed that joins it to the next
    outcomes[i] = OUTCOMES.indexOf(rowOutcome(item));
    lines.push(line);
  }
  return Buffer.from(lines.join("\n"));
}
