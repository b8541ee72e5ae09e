// What the bench must undo if it is stopped (Ctrl-C, SIGTERM) before it undoes it itself: the processes it
// started, the databases it made, the base build's worktree. Undone newest first, then the bench exits 130.
const undos = new Set();

/** Keeps `undo` for an interruption; returns the function that forgets it again (the work was undone). */
export function undoOnInterrupt(undo) {
  undos.add(undo);
  return () => undos.delete(undo);
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    process.stderr.write(`\nbench: ${signal}: cleaning up\n`);
    for (const undo of [...undos].reverse()) {
      try {
        await undo();
      } catch (error) {
        process.stderr.write(`bench: ${error.message}\n`);
      }
    }
    process.exit(130);
  });
}
