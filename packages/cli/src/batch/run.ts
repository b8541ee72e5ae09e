import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { answersHeader, counted, notUtf8Note, wasOrWere } from "@iccid/core/grammar";
import { isAPIUserAbortError } from "@iccid/sdk";
import type { CommandContext } from "../command-context.js";
import { UsageError } from "../errors.js";
import { ExitCode } from "../exit-codes.js";
import { note } from "../terminal.js";
import { openCsvInput } from "./csv-input.js";
import { runPipeline, type BatchTally } from "./pipeline.js";
import { startProgress } from "./progress.js";
import { readPreviousOutput, type BatchFormat } from "./resume.js";
import type { StoredChunk } from "./chunker.js";
import { listenForInterrupt } from "./interrupt.js";
import { resumeCommand, resumeKeyNote } from "./resume-hint.js";
import { readResumeState, resumeStatePath, writeResumeState } from "./resume-state.js";
import { TextSink } from "./sink.js";
import { renderSummary } from "./summary.js";
import { BatchWriter } from "./writer.js";

// One `iccid batch` run, from the options to the summary. Loaded only when batch runs (commands/batch.ts),
// so that the other commands start without the SDK and the batch machinery.

export interface BatchOptions {
  column?: string;
  delimiter?: string;
  out?: string;
  format?: BatchFormat;
  concurrency: number;
  errors?: string;
  resume?: boolean;
  quiet?: boolean;
  /** Other commands' format options, refused here (see runBatch). */
  output?: string;
  json?: boolean;
}

function formatFor(options: BatchOptions): BatchFormat {
  if (options.format) return options.format;
  return options.out && /\.(jsonl|ndjson)$/i.test(options.out) ? "jsonl" : "csv";
}

async function hasContent(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.size > 0,
    () => false,
  );
}

export async function runBatch(ctx: CommandContext, file: string, options: BatchOptions, args: readonly string[]): Promise<void> {
  const { term } = ctx;
  // Where every other command takes -o/--output or --json for its format, batch has --format beside --out
  // FILE: refused rather than left to commander, which offers --out for --output and so a file named "json".
  if (options.output !== undefined || options.json) {
    throw new UsageError("batch has no -o, --output or --json: use --format csv|jsonl (and --out FILE for a file)");
  }
  const toFile = options.out !== undefined && options.out !== "-";
  if (options.resume && !toFile) throw new UsageError("--resume needs --out FILE (the output to carry on)");
  if (options.errors && options.errors === options.out) throw new UsageError("--errors must be another file than --out");
  // Opening the output truncates it: writing over the input would destroy it before it is read.
  for (const [flag, path] of [["--out", options.out], ["--errors", options.errors]] as const) {
    if (path && path !== "-" && file !== "-" && resolve(path) === resolve(file)) {
      throw new UsageError(`${flag} ${path} is the input file; write the results elsewhere`);
    }
  }
  const format = formatFor(options);
  const client = await ctx.apiClient(); // a missing or mistyped key fails before any reading

  const input = await openCsvInput(file, options.column, options.delimiter, term.stdin);
  const { layout } = input;
  if (layout.columns.length === 0) {
    // An output left from an earlier run would read as this input's results: leave empty files instead.
    const emptied = options.resume ? [] : ([["--out", options.out], ["--errors", options.errors]] as const).filter(([, path]) => path && path !== "-");
    for (const [flag, path] of emptied) await (await TextSink.open(path, term.stdout, false, flag)).end();
    if (!options.resume && toFile) await writeResumeState(options.out!, []);
    const cleared = emptied.length > 0 ? `; ${emptied.map(([, path]) => path).join(" and ")} now empty` : "";
    note(term, `iccid: ${file === "-" ? "stdin" : file} holds no rows; nothing to do${cleared}`);
    return;
  }
  const previous = options.resume ? await readPreviousOutput(options.out!, format) : undefined;
  if (previous?.header && previous.header.join("\u0000") !== answersHeader(layout.columns).join("\u0000")) {
    input.close();
    throw new UsageError(`${options.out} has other columns than this input gives; is it the output of another file?`);
  }
  const skip = previous?.rows ?? 0;
  // Answers an earlier run was charged for but could not write yet: written from there, not asked again.
  const stored = options.resume ? (await readResumeState(options.out!, format)).filter((chunk) => chunk.start >= skip) : [];
  const appendErrors = previous !== undefined && options.errors !== undefined && (await hasContent(options.errors));
  const out = await TextSink.open(options.out, term.stdout, previous !== undefined);
  const errors = options.errors ? await TextSink.open(options.errors, term.stdout, appendErrors, "--errors") : undefined;
  const writer = new BatchWriter(format, layout.columns, out, errors);
  if (!previous?.header) writer.writeHeader(out);
  if (errors && !appendErrors) writer.writeHeader(errors);

  const tally: BatchTally = { rows: 0, valid: 0, invalid: 0, failed: 0, skipped: 0, restored: 0, unwritten: 0 };
  const kept: StoredChunk[] = [];
  const quiet = options.quiet === true;
  // One start for the progress line and the summary, so that their rates agree.
  const started = Date.now();
  const progress = quiet ? { update() {}, stop() {} } : await startProgress(term, started);
  const interrupt = listenForInterrupt(term);
  let failure: unknown;
  try {
    await runPipeline(
      { input, client, writer, progress, concurrency: options.concurrency, skip, stored, kept, interrupt },
      tally,
    );
  } catch (error) {
    // Ctrl-C ends requests by aborting them: that is the interruption itself, not a failure to report.
    const aborted = interrupt.signal.aborted || (interrupt.stop.aborted && isAPIUserAbortError(error));
    if (!aborted) failure = error;
  } finally {
    interrupt.dispose();
    progress.stop();
    input.close();
    await writer.flush();
    await out.end();
    await errors?.end();
    // What is still unwritten (kept by this run, or by an earlier one and not reached) stays for --resume.
    if (toFile) await writeResumeState(options.out!, [...stored, ...kept]);
  }

  const interrupted = interrupt.interrupted;
  const closed = interrupt.outputClosed;
  const stopped = interrupted || closed || failure !== undefined;
  const where = toFile ? ` → ${options.out}` : "";
  const headline = interrupted ? "Interrupted" : failure !== undefined ? "Stopped by an error" : closed ? "Stopped: the output was closed" : `Done${where}`;
  if (!quiet || stopped) term.stderr.write(renderSummary(term, tally, Date.now() - started, headline));
  if (writer.longRows > 0) {
    note(term, `note: ${counted(writer.longRows, "row")} had more cells than the header; the extra cells were left out`);
  }
  if (input.notUtf8() > 0) note(term, `note: ${notUtf8Note(file === "-" ? "stdin" : file, input.notUtf8())}`);
  if (closed) {
    // stdout's reader went away (| head): what it did not read, and what came after, is answered and charged.
    note(term, `The reader closed the output after ${counted(tally.rows, "row")}.`);
    if (tally.unwritten > 0) note(term, `${counted(tally.unwritten, "later row")} ${wasOrWere(tally.unwritten)} answered (and charged) but not written.`);
    note(term, "Rows asked for again in the same format within 24 hours are not charged again.");
    note(term, "To keep every row, write to a file with --out FILE.");
  } else if (stopped) {
    const done = tally.skipped + tally.rows;
    const held = done === 0 ? "no rows yet" : `the first ${counted(done, "row")}, each complete`;
    note(term, `${options.out && toFile ? options.out : "The output"} holds ${held}.`);
    const later = [...stored, ...kept].reduce((sum, chunk) => sum + chunk.iccids.length, 0);
    const laterRows = `${counted(later, "later row")} ${wasOrWere(later)} answered`;
    if (later > 0 && toFile) {
      note(term, `${laterRows} already; ${resumeStatePath(options.out!)} keeps them for --resume, which does not ask for them again.`);
    } else if (later > 0) {
      note(term, `${laterRows} but could not be written in order; with --out FILE they are kept for --resume.`);
    }
    note(term, toFile ? `To carry on: ${resumeCommand(args)}` : "To be able to resume, write to a file with --out FILE.");
    const keyNote = toFile ? resumeKeyNote(args) : undefined;
    if (keyNote) note(term, keyNote);
  }
  if (failure !== undefined) throw failure;
  // A reader that closed the output is a clean end (0), as for every command, whatever the rows it took held.
  if (interrupted) ctx.setExitCode(ExitCode.interrupted);
  else if (tally.failed > 0 && !closed) ctx.setExitCode(ExitCode.rowsFailed);
}
