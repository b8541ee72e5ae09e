import { answersHeader, BATCH_MAX_ITEMS, csvCell, csvLine, detectCsvLayout, lookupRowCsv, notUtf8Note, parseIccid, rowOutcome, wireInput, type CsvLayout, type LookupOutcome } from "@iccid/core/grammar";
import { api, ApiProblem } from "./api.js";
import { countOutcome, emptyTally } from "./answer-tally.js";
import { fileRecords, readHead, UnreadableFile, type ReadCount } from "./upload-records.js";
import type { PageMessage, PreviewRow, Stop, UploadSource, WorkerMessage } from "./upload-protocol.js";

// The upload worker: reads the input, asks the batch endpoint in chunks of as many rows as one batch may
// carry, one at a time, and builds the answers file as `iccid batch` writes it: the header, then every input
// row in input order, its cells squared to the header's width, then its lookup row (core's lookupRowCsv,
// which the server's CSV answer is written with). As the SDK does for the CLI, only what parses as an ICCID
// is sent, so a chunk of blank or broken rows costs no request. On a refusal, an error or Cancel no new
// chunk is asked for; a chunk already asked for is awaited and kept, so nothing charged is lost.

/** The worker's global, as far as it is used here (the page's type-check has the DOM's, not a worker's). */
const scope = globalThis as unknown as { postMessage(message: WorkerMessage): void; onmessage: ((event: MessageEvent<PageMessage>) => void) | null };
const post = (message: WorkerMessage): void => scope.postMessage(message);

/** Rows per batch request: as many as one may carry. */
const CHUNK_ROWS = BATCH_MAX_ITEMS;
/** Rows the table may show: the first ones, and as many of the first that are not valid. */
const PREVIEW_ROWS = 50;
const LINES_LAYOUT: CsvLayout = { hasHeader: false, columns: ["input"], iccidIndex: 0 };

let cancelled = false;

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === "cancel") cancelled = true;
  else void run(message.source);
};

async function* lineRecords(lines: readonly string[]): AsyncGenerator<string[][]> {
  for (let i = 0; i < lines.length; i += CHUNK_ROWS) yield lines.slice(i, i + CHUNK_ROWS).map((line) => [line]);
}

/** The data records in chunks of CHUNK_ROWS, after the layout is decided from the first two records. */
async function* chunksOf(blocks: AsyncGenerator<string[][]>, head: string[][]): AsyncGenerator<string[][]> {
  let chunk: string[][] = [];
  async function* all(): AsyncGenerator<string[][]> {
    yield head;
    yield* blocks;
  }
  for await (const block of all()) {
    for (const record of block) {
      chunk.push(record);
      if (chunk.length === CHUNK_ROWS) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * The Idempotency-Key of a chunk's request, made from what the chunk is (its first input row and the
 * ICCIDs sent), as `iccid batch` makes its own: the same file uploaded again after a refusal, a Cancel or
 * a lost connection is answered from what the server kept for the chunks it answered before, not charged
 * twice. Without Web Crypto (a page served over plain HTTP to another host) chunks go without one.
 */
async function chunkKey(start: number, sent: readonly string[]): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`page\n${start}\n${JSON.stringify(sent)}`));
  let binary = "";
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return `page-batch-${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}

/** Each cell of a chunk's ICCID column answered: parsed here first, the well-formed ones by the server. */
async function answer(iccids: readonly string[], start: number): Promise<LookupOutcome[]> {
  const outcomes: (LookupOutcome | undefined)[] = [];
  const send: string[] = [];
  const at: number[] = [];
  for (const iccid of iccids) {
    const parsed = parseIccid(iccid);
    if (parsed.ok) {
      at.push(outcomes.length);
      send.push(wireInput(parsed));
      outcomes.push(undefined);
    } else {
      outcomes.push({ ok: false, input: parsed.input, error: parsed.error });
    }
  }
  if (send.length > 0) {
    const { results } = await api.batch(send, await chunkKey(start, send));
    results.forEach((item, i) => (outcomes[at[i]!] = item.ok ? { ok: true, result: item.result } : { ok: false, input: item.input, error: item.error }));
  }
  return outcomes as LookupOutcome[];
}

function previewRow(row: number, input: string, outcome: LookupOutcome): PreviewRow {
  if (!outcome.ok) return { row, input, outcome: "failed", country: "", issuer: "", note: outcome.error.message };
  const { country, issuer, checks } = outcome.result;
  const note = outcome.result.valid ? "" : checks.format ? "the check digit does not match" : "not an ICCID's shape";
  return { row, input, outcome: rowOutcome(outcome), country: country?.name ?? "", issuer: issuer?.name ?? "", note };
}

function stopOf(error: unknown): Stop {
  if (error instanceof ApiProblem) {
    const reason = error.status === 0 || error.status >= 500 ? "failed" : "refused";
    return { reason, detail: error.detail, status: error.status, code: error.code, ...(error.retryAfterSeconds !== undefined && { retryAfterSeconds: error.retryAfterSeconds }) };
  }
  if (error instanceof UnreadableFile) return { reason: "failed", detail: error.message };
  return { reason: "failed", detail: error instanceof Error ? error.message : String(error) };
}

async function run(source: UploadSource): Promise<void> {
  cancelled = false;
  const count: ReadCount = { bytes: 0, notUtf8: 0 };
  const totalBytes = source.kind === "file" ? source.file.size : 0;
  const blocks = source.kind === "file" ? fileRecords(source.file, count) : lineRecords(source.lines);
  const tally = emptyTally();
  // Each chunk's rows go into a Blob of their own at once: the browser keeps those outside the JS heap (on
  // disk if need be), so a million rows of answers do not sit in the worker's memory as strings.
  const parts: Blob[] = [];
  const first: PreviewRow[] = [];
  const failed: PreviewRow[] = [];
  let stop: Stop | undefined;
  try {
    const head = await readHead(blocks);
    const layout = source.kind === "lines" ? LINES_LAYOUT : head[0] ? detectCsvLayout(head[0], head[1], source.column) : LINES_LAYOUT;
    parts.push(new Blob([csvLine(answersHeader(layout.columns))]));
    const width = layout.columns.length;
    let row = 0;
    for await (const chunk of chunksOf(blocks, layout.hasHeader ? head.slice(1) : head)) {
      if (cancelled) {
        stop = { reason: "cancelled", detail: "Cancelled." };
        break;
      }
      const outcomes = await answer(chunk.map((cells) => cells[layout.iccidIndex] ?? ""), row);
      let text = "";
      for (let i = 0; i < chunk.length; i++) {
        const cells = chunk[i]!;
        const outcome = outcomes[i]!;
        row++;
        for (let c = 0; c < width; c++) text += csvCell(cells[c] ?? "") + ",";
        text += lookupRowCsv(outcome) + "\n";
        countOutcome(tally, outcome);
        const input = cells[layout.iccidIndex] ?? "";
        if (first.length < PREVIEW_ROWS) first.push(previewRow(row, input, outcome));
        if (rowOutcome(outcome) !== "valid" && failed.length < PREVIEW_ROWS) failed.push(previewRow(row, input, outcome));
      }
      parts.push(new Blob([text]));
      post({ type: "progress", rows: row, bytes: count.bytes, totalBytes });
    }
  } catch (error) {
    stop = stopOf(error);
  } finally {
    await blocks.return(undefined);
  }
  const note = source.kind === "file" && count.notUtf8 > 0 ? notUtf8Note(source.file.name, count.notUtf8) : undefined;
  post({ type: "done", csv: new Blob(parts, { type: "text/csv" }), tally, rows: mergedPreview(first, failed), ...(stop && { stop }), ...(note && { note }) });
}

/** The first rows and the first failed rows, each once, in input order. */
function mergedPreview(first: readonly PreviewRow[], failed: readonly PreviewRow[]): PreviewRow[] {
  const seen = new Set(first.map((r) => r.row));
  return [...first, ...failed.filter((r) => !seen.has(r.row))].sort((a, b) => a.row - b.row);
}
