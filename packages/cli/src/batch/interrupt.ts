import { onClosedOutput } from "../closed-output.js";
import { ExitCode } from "../exit-codes.js";
import { note, type Terminal } from "../terminal.js";

/**
 * How a batch learns it is to stop before its input ends: Ctrl-C, or the reader of stdout going away
 * (`| head`). It stops in steps, so that what the server answered is still written or counted.
 */
export interface Interrupt {
  /**
   * Aborted by the first Ctrl-C, or when stdout's reader goes away: no new request starts and none waits
   * to try again (it holds no answer); those on the wire are waited for and written (or, the output being
   * closed, counted).
   */
  stop: AbortSignal;
  /** Aborted by a second Ctrl-C: the requests in flight end at once (answers they would bring are lost). */
  signal: AbortSignal;
  /** True once Ctrl-C was pressed. */
  readonly interrupted: boolean;
  /** True once stdout's reader went away: nothing more can be written there. */
  readonly outputClosed: boolean;
  /** Stops listening for Ctrl-C (a closed stdout stays counted until the process ends: see closed-output.ts). */
  dispose(): void;
}

/**
 * Listens for SIGINT and for stdout's reader going away while a batch runs. The first Ctrl-C lets the
 * requests on the wire finish (the server has most likely charged them already) and ends those waiting to
 * try again, the second ends them all, a third ends the process. A closed stdout stops the run as the first
 * Ctrl-C does.
 */
export function listenForInterrupt(term: Terminal): Interrupt {
  const stop = new AbortController();
  const abort = new AbortController();
  let count = 0;
  let outputClosed = false;
  const onSignal = () => {
    count++;
    if (count === 1) {
      note(term, "\niccid: stopping: writing the answers of the requests in flight (Ctrl-C again to drop them)");
      stop.abort(new Error("interrupted"));
    } else if (count === 2) abort.abort(new Error("interrupted"));
    else process.exit(ExitCode.interrupted);
  };
  process.on("SIGINT", onSignal);
  onClosedOutput(() => {
    outputClosed = true;
    if (!stop.signal.aborted) stop.abort(new Error("output closed"));
  });
  return {
    stop: stop.signal,
    signal: abort.signal,
    get interrupted() {
      return count > 0;
    },
    get outputClosed() {
      return outputClosed;
    },
    dispose: () => process.off("SIGINT", onSignal),
  };
}
