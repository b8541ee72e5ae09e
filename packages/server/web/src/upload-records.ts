import { CsvRecordReader } from "@iccid/core/grammar";

// The records of an upload, block by block, read with core's CsvRecordReader as `iccid batch` reads a file
// (csv-input.ts there): a UTF-8 or UTF-16 BOM, CRLF or LF, the field separator detected (, ; or tab),
// quoted cells, blank lines skipped. A file that
// is not text is refused by its first block, before anything is sent.

/** The file cannot be read as CSV: not text, or a quote left open at the end. */
export class UnreadableFile extends Error {
  override name = "UnreadableFile";
}

/** Where a reading stands, for the progress bar. */
export interface ReadCount {
  bytes: number;
}

function refuseBinary(first: Uint8Array, name: string): void {
  if (first[0] === 0xff && first[1] === 0xfe) return; // UTF-16 (LE) text, which holds NUL bytes by nature
  let text = !first.includes(0);
  if (text) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(first, { stream: true }); // a character cut at the block's end is fine
    } catch {
      text = false;
    }
  }
  if (!text) throw new UnreadableFile(`${name} is not a text file (CSV is text; is this a spreadsheet or an archive?)`);
}

/** The records of a file in blocks, in file order; `count.bytes` follows what was read. */
export async function* fileRecords(file: File, count: ReadCount): AsyncGenerator<string[][]> {
  const reader = new CsvRecordReader("detect");
  const blocks = file.stream().getReader();
  let decoder: TextDecoder | undefined;
  try {
    for (;;) {
      const { done, value } = await blocks.read();
      if (done) break;
      if (!decoder) {
        refuseBinary(value, file.name);
        // The reader drops a BOM itself, so the decoder keeps it.
        decoder = new TextDecoder(value[0] === 0xff && value[1] === 0xfe ? "utf-16le" : "utf-8", { ignoreBOM: true });
      }
      count.bytes += value.length;
      const records: string[][] = [];
      reader.write(decoder.decode(value, { stream: true }), false, records);
      if (records.length > 0) yield records;
    }
    const last: string[][] = [];
    reader.write(decoder?.decode() ?? "", true, last);
    if (last.length > 0) yield last;
  } catch (error) {
    if (error instanceof UnreadableFile || !(error instanceof Error)) throw error;
    throw new UnreadableFile(`${file.name} is not readable as CSV: ${error.message}`);
  } finally {
    blocks.releaseLock();
  }
}

/**
 * Reads blocks until it holds two records, the ones that decide the layout as in `iccid batch`, and returns every
 * record it read (fewer than two if the input holds fewer): the upload goes on from there, losing none. The page's
 * preview of a chosen file and the upload both take their head with this, so that both find the same layout.
 */
export async function readHead(blocks: AsyncIterator<string[][]>): Promise<string[][]> {
  const head: string[][] = [];
  while (head.length < 2) {
    const next = await blocks.next();
    if (next.done) break;
    head.push(...next.value);
  }
  return head;
}
