/**
 * Resolves once everything written to `stream` so far has gone to the operating system. Writes complete
 * in order, so the callback of an empty write comes after every earlier write; on a pipe they are
 * asynchronous, and exiting before this would cut the output short.
 */
export function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/** Ends the process with `code` once stdout and stderr hold nothing unwritten: data on stdout is never lost. */
export async function exitWhenFlushed(code: number, proc: NodeJS.Process = process): Promise<never> {
  await Promise.all([flushed(proc.stdout), flushed(proc.stderr)]);
  return proc.exit(code);
}
