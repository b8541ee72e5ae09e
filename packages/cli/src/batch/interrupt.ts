import { ExitCode } from "../exit-codes.js";
import { note, type Terminal } from "../terminal.js";

/** How a batch learns of Ctrl-C: it stops in steps, so that what the server answered is still written. */
export interface Interrupt {
  /** True after the first Ctrl-C: no new request starts; those in flight are waited for and written. */
  stopping(): boolean;
  /** Aborted by a second Ctrl-C: the requests in flight end at once (answers they would bring are lost). */
  signal: AbortSignal;
  /** Stops listening for SIGINT. */
  dispose(): void;
}

/**
 * Listens for SIGINT while a batch runs. The first Ctrl-C lets the requests in flight finish (the server
 * has most likely charged them already), the second ends them, a third ends the process.
 */
export function listenForInterrupt(term: Terminal): Interrupt {
  const abort = new AbortController();
  let count = 0;
  const onSignal = () => {
    count++;
    if (count === 1) note(term, "\niccid: stopping: writing the answers of the requests in flight (Ctrl-C again to drop them)");
    else if (count === 2) abort.abort(new Error("interrupted"));
    else process.exit(ExitCode.interrupted);
  };
  process.on("SIGINT", onSignal);
  return {
    stopping: () => count > 0,
    signal: abort.signal,
    dispose: () => process.off("SIGINT", onSignal),
  };
}
