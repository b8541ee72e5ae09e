import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";

/** Bytes gathered before one write: large enough that a million rows cost a few hundred writes. */
const FLUSH_AT = 64 * 1024;

/**
 * A buffered text output with backpressure. Rows are appended as strings and written in large blocks;
 * when the stream's buffer is full, `flush` waits for 'drain', which in turn slows the reading of the
 * input. Only whole rows are ever handed to it, so whatever is on disk after a flush is valid output.
 */
export class TextSink {
  private parts: string[] = [];
  private size = 0;

  constructor(
    private readonly stream: Writable,
    private readonly owned: boolean,
  ) {}

  /** stdout when `path` is undefined or "-"; else the file, appended to when `append` is set. */
  static open(path: string | undefined, stdout: Writable, append = false): TextSink {
    if (path === undefined || path === "-") return new TextSink(stdout, false);
    return new TextSink(createWriteStream(path, { flags: append ? "a" : "w" }), true);
  }

  /** Appends text; returns a promise only when a flush was due, so the hot loop rarely awaits. */
  write(text: string): Promise<void> | undefined {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= FLUSH_AT ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.size === 0) return;
    const text = this.parts.join("");
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(text)) await once(this.stream, "drain");
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
