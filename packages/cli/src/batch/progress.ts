import type { Ora } from "ora";
import { counted, formatCount } from "@iccid/core/grammar";
import type { Terminal } from "../terminal.js";
import { rowsPerSecond } from "./pace.js";

export interface Progress {
  /**
   * `rows`: rows written by this run; `fraction`: the share of the input done, when its size is known
   * (for the percentage and ETA); `done`: rows done in all, with those an earlier run wrote (`--resume`).
   */
  update(rows: number, fraction: number | undefined, done?: number): void;
  /** Clears the spinner line (TTY) so that the summary starts on a clean line. */
  stop(): void;
}

const REDRAW_MS = 100;
/** Without a known size, a plain milestone line every this many rows. */
const ROW_MILESTONE = 100_000;

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * "12,000 rows · 3,400 rows/s · 42% · ETA 0:35" (the last two only when the input size is known). The
 * rate and the ETA are this run's: the rows left (from `done` rows being `fraction` of the input) at the
 * pace of the `rows` this run wrote, never counting the rows an earlier run did (`--resume`).
 */
export function progressText(rows: number, elapsedMs: number, fraction: number | undefined, done = rows): string {
  const parts = [counted(rows, "row"), `${formatCount(rowsPerSecond(rows, elapsedMs))} rows/s`];
  if (fraction !== undefined && fraction > 0) {
    parts.push(`${Math.min(100, Math.floor(fraction * 100))}%`);
    const left = (done * (1 - fraction)) / fraction;
    if (rows > 0 && elapsedMs > 0) parts.push(`ETA ${clock(left / (rows / elapsedMs) / 1000)}`);
  }
  return parts.join(" · ");
}

/**
 * A spinner with rows, rate and ETA on a TTY; on a pipe or a log file, one plain line per 10% of the
 * input (or per 100,000 rows when the size is unknown), since a redrawn line would fill a log with noise.
 * `started` is the run's start, which the summary's time counts from too.
 */
export async function startProgress(term: Terminal, started: number, label = "batch"): Promise<Progress> {
  // A pseudo-terminal without a size (columns 0) makes a redrawn line impossible to erase: use plain lines.
  if (term.stderrIsTTY && (term.stderr.columns ?? 0) > 0) {
    const { default: ora } = await import("ora"); // only a TTY run needs the spinner
    const spinner: Ora = ora({
      text: "starting…",
      stream: term.stderr,
      color: term.stderrColor ? "cyan" : false,
      discardStdin: false, // stdin may be the CSV itself (`iccid batch -`)
    }).start();
    let drawn = 0;
    return {
      update(rows, fraction, done) {
        const now = Date.now();
        if (now - drawn < REDRAW_MS) return;
        drawn = now;
        spinner.text = progressText(rows, now - started, fraction, done);
      },
      stop: () => spinner.stop(),
    };
  }

  let nextStep = 1;
  let nextRows = ROW_MILESTONE;
  return {
    update(rows, f, done) {
      if (f !== undefined) {
        if (f * 10 < nextStep) return;
        while (f * 10 >= nextStep) nextStep++;
      } else {
        if (rows < nextRows) return;
        while (rows >= nextRows) nextRows += ROW_MILESTONE;
      }
      term.stderr.write(`${label}: ${progressText(rows, Date.now() - started, f, done)}\n`);
    },
    stop() {},
  };
}
