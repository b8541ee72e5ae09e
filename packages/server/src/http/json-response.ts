import type { ParameterizedContext } from "koa";
import type { JsonEncoder } from "./json-encoder.js";
import type { AppState } from "./state.js";
import { commonFields } from "./wire-basics.js";

// Pieces are gathered into a string of about this length before it is encoded into the answer's buffer:
// short enough that the string stays cheap to flatten, long enough that the copies are few. Measured on a
// batch of 1000 (about 450 KB): 16 to 64 K are alike, 8 K costs 5 % more, 1 K 10 %, 128 K a quarter.
const PIECE_CHARS = 32 * 1024;
const SPARE_MAX = 8;
const spare: Buffer[] = [];

/**
 * The bytes of one answer, written as the encoder hands over its pieces. A small answer is one piece and
 * one Buffer from Node's pool. A large one goes into a buffer reused from an earlier answer, once that one
 * was handed to the kernel: a fresh 400 KB buffer costs a page fault per 4 KB written, which was over a
 * tenth of a 1000-item batch's CPU time.
 */
class AnswerBytes {
  #pending = "";
  #buffer: Buffer | undefined;
  #size = 0;

  readonly add = (piece: string): void => {
    this.#pending += piece;
    if (this.#pending.length >= PIECE_CHARS) this.#flush();
  };

  /** The answer's bytes; `release` gives a reused buffer back once they are no longer needed. */
  finish(): EncodedAnswer {
    if (!this.#buffer) return { body: Buffer.from(this.#pending) };
    this.#flush();
    const buffer = this.#buffer!;
    return { body: buffer.subarray(0, this.#size), release: () => spare.length < SPARE_MAX && spare.push(buffer) };
  }

  #flush(): void {
    const text = this.#pending;
    this.#pending = "";
    const room = text.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (!this.#buffer) this.#buffer = spare.pop() ?? Buffer.allocUnsafeSlow(Math.max(room, 256 * 1024));
    if (this.#size + room > this.#buffer.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.#buffer.length * 2, this.#size + room));
      this.#buffer.copy(bigger, 0, 0, this.#size);
      this.#buffer = bigger;
    }
    this.#size += this.#buffer.write(text, this.#size, "utf8");
  }
}

/** An answer's bytes; `release` (when there is one) gives a reused buffer back once they are not needed. */
export interface EncodedAnswer {
  body: Buffer;
  release?: () => void;
}

/** Encodes a value with its schema's encoder (see json-encoder.ts). */
export function encodeJson<T>(value: T, encoder: JsonEncoder<T>): EncodedAnswer {
  return encodePieces((add) => encoder.encodeTo(value, add));
}

/** The bytes of an answer that `write` hands over in pieces, in order. */
export function encodePieces(write: (add: (piece: string) => void) => void): EncodedAnswer {
  const bytes = new AnswerBytes();
  write(bytes.add);
  return bytes.finish();
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * Answers 200 with bytes encoded once, JSON unless `contentType` says otherwise, and the head written in
 * one go: the common fields (wire-basics.ts), `fields` (name, value, …), the type and the length. Koa,
 * given an object, would stringify it, scan the string for its byte length and have the socket encode it
 * again; and headers set one by one are each checked, lower-cased and stored before being written.
 */
export function sendEncoded(
  ctx: ParameterizedContext<AppState>,
  { body, release }: EncodedAnswer,
  contentType = JSON_CONTENT_TYPE,
  fields: readonly string[] = [],
): void {
  ctx.respond = false;
  if (!ctx.writable) return release?.();
  const res = ctx.res;
  const head = commonFields(ctx.state);
  head.push(...fields, "Content-Type", contentType, "Content-Length", String(body.length));
  res.writeHead(200, head);
  // Only after "finish" (the last byte handed to the kernel); an answer cut short leaves its buffer to GC.
  if (release) res.once("finish", release);
  res.end(body);
}

export function sendJson<T>(ctx: ParameterizedContext<AppState>, value: T, encoder: JsonEncoder<T>): void {
  sendEncoded(ctx, encodeJson(value, encoder));
}
