import { CsvRecordReader, FileTextDecoder, UnreadableFileText } from "@iccid/core/grammar";

// The records of an upload, block by block, read with core's CsvRecordReader as `iccid batch` reads a file
// (csv-input.ts there): a UTF-8 or UTF-16 BOM, CRLF or LF, the field separator detected (, ; or tab),
// quoted cells, blank lines and rows of empty cells skipped. A file that is not text, or not UTF-8, is
// refused by its first block, before anything is sent; past it, characters that are not UTF-8 are counted.

/** The file cannot be read as CSV: not text, not UTF-8, or a quote left open at the end. */
export class UnreadableFile extends Error {
  override name = "UnreadableFile";
}

/** Where a reading stands: its bytes, for the progress bar, and the characters past the first block that were not UTF-8. */
export interface ReadCount {
  bytes: number;
  notUtf8: number;
}

/** The records of a file in blocks, in file order; `count` follows what was read. */
export async function* fileRecords(file: File, count: ReadCount): AsyncGenerator<string[][]> {
  const reader = new CsvRecordReader("detect", { skipEmptyRecords: true });
  const blocks = file.stream().getReader();
  let decoder: FileTextDecoder | undefined;
  try {
    for (;;) {
      const { done, value } = await blocks.read();
      if (done) break;
      decoder ??= FileTextDecoder.of(value, file.name);
      count.bytes += value.length;
      const records: string[][] = [];
      reader.write(decoder.decode(value), false, records);
      count.notUtf8 = decoder.notUtf8;
      if (records.length > 0) yield records;
    }
    const last: string[][] = [];
    reader.write(decoder?.decode() ?? "", true, last);
    count.notUtf8 = decoder?.notUtf8 ?? 0;
    if (last.length > 0) yield last;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    if (error instanceof UnreadableFileText) throw new UnreadableFile(error.message);
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
