/**
 * Rows a second, the one way the progress line and the summary both say it: the rows this run wrote over
 * the time since the run started (one start time, run.ts's), rounded to a whole number; 0 before any time
 * has passed.
 */
export function rowsPerSecond(rows: number, elapsedMs: number): number {
  return elapsedMs > 0 ? Math.round((rows * 1000) / elapsedMs) : 0;
}
