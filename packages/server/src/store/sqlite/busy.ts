import { setTimeout as sleep } from "node:timers/promises";
import { StoreUnavailable } from "../errors.js";

/** Another connection holds the lock: worth waiting for. */
const BUSY = /^SQLITE_(BUSY|LOCKED)/;
/**
 * The file cannot be written or read right now (lock, full disk, I/O, read-only) or its pages are damaged
 * (corrupt, not a database): a 503, not a 500. A damaged file is refused at start (checkIntegrity).
 */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|PROTOCOL|CORRUPT|NOTADB)/;

const code = (error: unknown) => String((error as { code?: unknown })?.code ?? "");

/** A SQLite error as the store reports it: StoreUnavailable when the fault is the file's state. */
export function storeError(error: unknown): unknown {
  return UNAVAILABLE.test(code(error)) ? new StoreUnavailable({ cause: error }) : error;
}

/**
 * Runs synchronous SQLite work, retrying while another connection holds the lock, for up to `timeoutMs`.
 * The connection's own busy_timeout is 0: SQLite's busy handler sleeps inside the call and so blocks the
 * event loop (a lock held for 5 s froze every request for 5 s). Here the waiting happens between
 * attempts, asynchronously, so other requests are answered meanwhile.
 */
export async function whenNotBusy<T>(work: () => T, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      return work();
    } catch (error) {
      if (!BUSY.test(code(error)) || Date.now() + pause > deadline) throw storeError(error);
    }
    await sleep(pause);
  }
}
