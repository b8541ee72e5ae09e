import { ExitCode } from "../exit-codes.js";
import { note, type Terminal } from "../terminal.js";

/** How a batch learns of Ctrl-C: it stops in steps, so that what the server answered is still written. */
export interface Interrupt {
  /**
   * Aborted by the first Ctrl-C: no new request starts and none waits to try again (it holds no answer);
   * those on the wire are waited for and written.
   */
  stop: AbortSignal;
  /** Aborted by a second Ctrl-C: the requests in flight end at once (answers they would bring are lost). */
  signal: AbortSignal;
  /** Stops listening for SIGINT. */
  dispose(): void;
}

/**
 * Listens for SIGINT while a batch runs. The first Ctrl-C lets the requests on the wire finish (the server
 * has most likely charged them already) and ends those waiting to try again, the second ends them all, a
 * third ends the process.
 */
export function listenForInterrupt(term: Terminal): Interrupt {
  const stop = new AbortController();
  const abort = new AbortController();
  let count = 0;
  const onSignal = () => {
    count++;
    if (count === 1) {
      note(term, "\niccid: stopping: writing the answers of the requests in flight (Ctrl-C again to drop them)");
      stop.abort(new Error("interrupted"));
    } else if (count === 2) abort.abort(new Error("interrupted"));
    else process.exit(ExitCode.interrupted);
  };
  process.on("SIGINT", onSignal);
  return {
    stop: stop.signal,
    signal: abort.signal,
    dispose: () => process.off("SIGINT", onSignal),
  };
}
