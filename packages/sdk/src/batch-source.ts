// How batchAll's engine takes ICCIDs from the caller's source: one at a time from an iterable of strings,
// or a block at a time from an iterable of arrays (the rows of a file read in blocks).

/** What `batchAllChunks` reads: ICCIDs in arrays of any length (the arrays need not match the request chunks). */
export type BatchAllChunkSource = Iterable<readonly string[]> | AsyncIterable<readonly string[]>;

/** Takes up to `max` ICCIDs from the source; false once the source has ended. */
export type Reader = (max: number, into: (value: string) => void) => Promise<boolean> | boolean;

/** Reads a source of single ICCIDs; `isAsync` says which kind of iterator it is. */
export function itemReader(iterator: Iterator<string> | AsyncIterator<string>, isAsync: boolean): Reader {
  if (!isAsync) {
    const it = iterator as Iterator<string>;
    return (max, into) => {
      let n = 0;
      for (; n < max; n++) {
        const next = it.next();
        if (next.done) break;
        into(next.value);
      }
      return n === max;
    };
  }
  return async (max, into) => {
    let n = 0;
    for (; n < max; n++) {
      const next = await iterator.next();
      if (next.done) break;
      into(next.value);
    }
    return n === max;
  };
}

/** Reads a source of arrays of ICCIDs, across the arrays' bounds. */
export function arrayReader(iterator: Iterator<readonly string[]> | AsyncIterator<readonly string[]>): Reader {
  let block: readonly string[] = [];
  let at = 0;
  return async (max, into) => {
    let n = 0;
    while (n < max) {
      if (at >= block.length) {
        const next = await iterator.next();
        if (next.done) break;
        block = next.value;
        at = 0;
        continue;
      }
      const end = Math.min(block.length, at + (max - n));
      for (; at < end; at++, n++) into(block[at]!);
    }
    return n === max;
  };
}

/** Reads a source of arrays one array at a time, each array one chunk (empty ones passed over). */
export function wholeArrayReader(iterator: Iterator<readonly string[]> | AsyncIterator<readonly string[]>): Reader {
  return async (max, into) => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return false;
      const block = next.value;
      if (block.length > max) throw new RangeError(`a chunk holds at most ${max} ICCIDs, got ${block.length}`);
      for (const value of block) into(value);
      if (block.length > 0) return true;
    }
  };
}

/** The iterator of a source, sync or async. */
export function iteratorOf<T>(source: Iterable<T> | AsyncIterable<T>): Iterator<T> | AsyncIterator<T> {
  return Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
}
