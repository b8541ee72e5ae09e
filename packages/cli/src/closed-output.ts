/**
 * When the reader of stdout goes away (`iccid lookup … | head -1`), writing fails with EPIPE. That is no
 * error: by default the process ends at once with status 0. A command with answers on the way that it must
 * account for (`batch`: they are charged) takes the event over while it runs, and stops in its own time.
 */
let takenOver: (() => void) | undefined;

/** Installs the rule on `stdout`; any other write error is thrown as before. */
export function endOnClosedOutput(stdout: NodeJS.WriteStream, exit: (code: number) => void = (code) => process.exit(code)): void {
  stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    if (takenOver) takenOver();
    else exit(0);
  });
}

/**
 * Calls `handler` (perhaps more than once) instead of ending the process when stdout's reader goes away,
 * for the rest of the process: the command that asks is its last work, and its final writes and notes may
 * meet the closed pipe too.
 */
export function onClosedOutput(handler: () => void): void {
  takenOver = handler;
}
