import { AnswerBytes, SPARE_MAX } from "../src/http/answer-bytes.js";

// The answer buffers kept for reuse, made to hand out a known one: tests of who gives a buffer back, and when.

/** An answer of about 250K characters, so written into a buffer (a spare one when there is one), and past the first size a buffer is made in. */
export function largeAnswer(label = "item"): AnswerBytes {
  const bytes = new AnswerBytes();
  for (let i = 0; i < 20_000; i++) bytes.add(`"${label}-${i}",`);
  return bytes;
}

/** Takes every spare buffer into answers never given back (discard them at the end), so that the next buffer given back is the next one handed out. */
export function holdSpareBuffers(): AnswerBytes[] {
  return Array.from({ length: SPARE_MAX }, (_, i) => largeAnswer(`held-${i}`));
}

/** The buffer of a large answer, given back: while the spares are held, the next large answer is written into it. */
export function givenBackBuffer(): ArrayBufferLike {
  const bytes = largeAnswer("given");
  const buffer = bytes.bytes().buffer;
  bytes.release();
  return buffer;
}
