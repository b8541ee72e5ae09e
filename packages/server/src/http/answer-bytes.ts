import type { ServerResponse } from "node:http";

// Pieces are gathered into a string of about this length before they are encoded into the answer's
// buffer: short enough that the string stays cheap to flatten, long enough that the copies are few.
const PIECE_CHARS = 32 * 1024;
// Buffers kept for reuse: a fresh large buffer costs a page fault per page written.
export const SPARE_MAX = 8;
const FIRST_BUFFER_BYTES = 256 * 1024;
const spare: Buffer[] = [];

/**
 * The bytes of one large answer, written piece by piece in order. They go into a buffer reused from an
 * earlier answer once that one was given back, or a new one. Made for a response, they are given back when it
 * closes (sent in full, or its connection gone), whatever happened before, or at once when the answer is
 * refused before its bytes were taken (`discard`). A response that closed before its bytes were taken (its
 * client left while the request went on) lets its buffer go unreused: the request may still take the bytes
 * (to keep them for an Idempotency-Key's replay), and they must be whole. `bytes()` is never read after the
 * buffer was given back.
 */
export class AnswerBytes {
  #pending = "";
  #buffer: Buffer | undefined;
  #size = 0;
  #released = false;
  /** `bytes()` was called: the answer has its bytes. */
  #taken = false;

  constructor(response?: ServerResponse) {
    // "close" follows "finish" (the last byte handed to the kernel), or the connection's end.
    response?.once("close", () => this.release());
  }

  add(piece: string): void {
    if (piece.length >= PIECE_CHARS) {
      // A long piece goes in as it is: joined to what is pending, it would be copied once more to flatten.
      this.#flush();
      this.#write(piece);
      return;
    }
    this.#pending += piece;
    if (this.#pending.length >= PIECE_CHARS) this.#flush();
  }

  /** The answer's bytes so far (everything added). */
  bytes(): Buffer {
    this.#taken = true;
    if (!this.#buffer) return Buffer.from(this.#pending);
    this.#flush();
    return this.#buffer.subarray(0, this.#size);
  }

  /** Gives the buffer back for another answer once its bytes were taken; once only, whatever is called after. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (this.#taken) this.#giveBack(); // else still being made: the bytes stay whole for bytes(), the buffer is not reused
  }

  /** The answer was refused: its bytes are never read, so the buffer goes back now; a later `release` does nothing. */
  discard(): void {
    this.#released = true;
    this.#giveBack();
  }

  #giveBack(): void {
    if (this.#buffer && spare.length < SPARE_MAX) spare.push(this.#buffer);
    this.#buffer = undefined;
  }

  #flush(): void {
    const text = this.#pending;
    this.#pending = "";
    if (text !== "") this.#write(text);
  }

  #write(text: string): void {
    const room = text.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (!this.#buffer) this.#buffer = spare.pop() ?? Buffer.allocUnsafeSlow(Math.max(room, FIRST_BUFFER_BYTES));
    if (this.#size + room > this.#buffer.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.#buffer.length * 2, this.#size + room));
      this.#buffer.copy(bigger, 0, 0, this.#size);
      this.#buffer = bigger;
    }
    this.#size += this.#buffer.write(text, this.#size, "utf8");
  }
}
