// What the bench must undo if it is stopped (Ctrl-C, SIGTERM) before it undoes it itself: the processes it
// started, the databases it made, the base build's worktree. Undone newest first, then the bench exits 130.
const undos = new Set();
let cleaning;

/** Keeps `undo` for an interruption; returns the function that forgets it again (the work was undone). */
export function undoOnInterrupt(undo) {
  undos.add(undo);
  return () => undos.delete(undo);
}

/**
 * Resolves at once while the bench is not interrupted; once it is, never (the clean-up under way ends the
 * process): work that failed because it was interrupted waits here instead of ending the bench early.
 */
export function interruption() {
  return cleaning ?? Promise.resolve();
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}: cleaning up\n`);
    cleaning = (async () => {
      for (const undo of [...undos].reverse()) {
        try {
          await undo();
        } catch (error) {
          process.stderr.write(`bench: ${error.message}\n`);
        }
      }
      process.exit(130);
    })();
  });
}
