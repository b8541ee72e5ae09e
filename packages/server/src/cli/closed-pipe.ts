/**
 * Output into a pipe whose reader has gone (`iccid-server account list | head -3`): the reader asked for
 * no more, so the command stops quietly with status 0 instead of dying on an unhandled EPIPE with a stack
 * trace. Any other write error is still thrown.
 */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(0);
  });
}
