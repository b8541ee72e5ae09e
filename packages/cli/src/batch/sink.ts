import { once } from "node:events";
import { open } from "node:fs/promises";
import { dirname } from "node:path";
import type { Writable } from "node:stream";
import { CliError, fileProblem } from "../errors.js";
import { csvCell, needsQuotes, startsFormula } from "@iccid/core/grammar";

/** Bytes gathered before one write: large enough that a million rows cost a few thousand writes. */
const FLUSH_AT = 64 * 1024;
/** Blocks kept for reuse once the stream is done with them. */
const SPARE_BLOCKS = 4;
/** What csvCell puts before a cell that would run as a formula. */
const APOSTROPHE = 39;

/**
 * A buffered byte output with backpressure. Rows are encoded straight into a block (ASCII byte by byte,
 * anything else through Buffer#write), so building a row allocates nothing, and a block is written when
 * it holds FLUSH_AT bytes; blocks come back for reuse when the stream has written them. When the stream's
 * buffer is full, `endRow`/`flush` wait for 'drain', which in turn slows the reading of the input. A block
 * is only written at a row's end, so whatever is on disk after a flush is whole rows.
 */
export class TextSink {
  private block: Buffer = Buffer.allocUnsafeSlow(2 * FLUSH_AT);
  private spare: Buffer[] = [];
  /** Bytes of the current block in use. */
  pos = 0;
  /** stdout's reader has gone (EPIPE): what is left goes nowhere. */
  private readerGone = false;

  constructor(
    private readonly stream: Writable,
    private readonly owned: boolean,
  ) {}

  /**
   * stdout when `path` is undefined or "-"; else the file, appended to when `append` is set. The file is
   * opened here, so that a path that cannot be written fails now, as one line naming `flag`.
   */
  static async open(path: string | undefined, stdout: Writable, append = false, flag = "--out"): Promise<TextSink> {
    if (path === undefined || path === "-") return new TextSink(stdout, false);
    try {
      const handle = await open(path, append ? "a" : "w");
      return new TextSink(handle.createWriteStream(), true);
    } catch (error) {
      throw new CliError(`${flag} ${path}: ${fileProblem(error as NodeJS.ErrnoException, `the folder ${dirname(path)} does not exist`)}`);
    }
  }

  /** Appends whole rows of text; returns a promise only when a flush was due, so the hot loop rarely awaits. */
  write(text: string): Promise<void> | undefined {
    this.put(text);
    return this.endRow();
  }

  /** Ends a row: writes the block out when it is full enough; a promise only when the stream asked to wait. */
  endRow(): Promise<void> | undefined {
    return this.pos >= FLUSH_AT ? this.flush() : undefined;
  }

  /** Room for `bytes` more bytes in the current block (a row longer than a block grows it). */
  private reserve(bytes: number): Buffer {
    if (this.pos + bytes > this.block.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.block.length, this.pos + bytes));
      this.block.copy(bigger, 0, 0, this.pos);
      this.block = bigger;
    }
    return this.block;
  }

  /** Appends text, UTF-8 encoded. */
  put(text: string): void {
    const n = text.length;
    const b = this.reserve(3 * n);
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) {
        this.pos = p + b.write(text.slice(i), p, "utf8");
        return;
      }
      b[p++] = c;
    }
    this.pos = p;
  }

  /** Appends one ASCII character by its code. */
  putByte(code: number): void {
    this.reserve(1)[this.pos++] = code;
  }

  /**
   * Appends one CSV cell as csvCell writes it (neutralised, quoted when needed): the plain ASCII cells
   * that are nearly all of a batch go byte by byte; anything else through csvCell itself.
   */
  putCell(cell: string): void {
    const n = cell.length;
    if (n === 0) return;
    const b = this.reserve(n + 1);
    let p = this.pos;
    if (startsFormula(cell.charCodeAt(0))) b[p++] = APOSTROPHE;
    for (let i = 0; i < n; i++) {
      const c = cell.charCodeAt(i);
      // A quote, comma or line break needs quoting, and non-ASCII the UTF-8 encoder: csvCell and put().
      if (c >= 128 || needsQuotes(c)) {
        this.put(csvCell(cell));
        return;
      }
      b[p++] = c;
    }
    this.pos = p;
  }

  /** Appends bytes `from`–`to` of `bytes`, as they are. */
  putBytes(bytes: Buffer, from: number, to: number): void {
    const b = this.reserve(to - from);
    this.pos += bytes.copy(b, this.pos, from, to);
  }

  /** Appends bytes `from`–`to` of the current block of another sink (a row written there too). */
  copyFrom(other: TextSink, from: number): void {
    this.putBytes(other.block, from, other.pos);
  }

  /**
   * Writes the block out, waiting when the stream asks to. Once stdout's reader has gone (EPIPE: a closed
   * pipe, which closed-output.ts reports, and after which stdout still reads as writable), what is left goes
   * nowhere; a file's write error is thrown.
   */
  async flush(): Promise<void> {
    if (this.pos === 0) return;
    const full = this.block;
    const length = this.pos;
    this.block = this.spare.pop() ?? Buffer.allocUnsafeSlow(2 * FLUSH_AT);
    this.pos = 0;
    if (this.readerGone) return;
    const gone = (error: NodeJS.ErrnoException | null | undefined) => !this.owned && error?.code === "EPIPE";
    const ready = this.stream.write(full.subarray(0, length), (error) => {
      if (gone(error)) this.readerGone = true;
      else if (this.spare.length < SPARE_BLOCKS && full.length === 2 * FLUSH_AT) this.spare.push(full);
    });
    if (!ready) {
      await once(this.stream, "drain").catch((error: NodeJS.ErrnoException) => {
        if (!gone(error)) throw error;
        this.readerGone = true;
      });
    }
  }

  /** Flushes and, for a file, closes it (stdout stays open for whoever else writes to it). */
  async end(): Promise<void> {
    await this.flush();
    if (!this.owned) return;
    const finished = once(this.stream, "finish");
    this.stream.end();
    await finished;
  }
}
