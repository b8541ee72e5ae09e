import type { Readable } from "node:stream";

/**
 * Drains an object-mode stream (the CSV parser) in chunks of up to `max` records. Each wait for data
 * costs one promise per chunk instead of one per record, which is what `for await` over the stream
 * would cost, and the stream keeps its own backpressure: nothing is read that the caller has not asked for.
 */
export async function* recordChunks<T>(stream: Readable, max: number): AsyncGenerator<T[]> {
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const signal = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  stream.on("readable", signal);
  stream.on("end", () => {
    ended = true;
    signal();
  });
  // A stream destroyed on purpose (Ctrl-C) only says 'close': treat it as the end, or this would wait forever.
  stream.on("close", () => {
    ended = true;
    signal();
  });
  stream.on("error", (error) => {
    failure = error;
    signal();
  });
  try {
    for (;;) {
      const chunk: T[] = [];
      let record: T | null;
      while (chunk.length < max && (record = stream.read() as T | null) !== null) chunk.push(record);
      if (chunk.length > 0) {
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off("readable", signal);
  }
}
