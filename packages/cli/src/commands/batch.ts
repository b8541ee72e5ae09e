import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { answersHeader, counted, isCsvSeparator, notUtf8Note, wasOrWere } from "@iccid/core/grammar";
import { isAPIUserAbortError } from "@iccid/sdk";
import type { CommandContext } from "../command-context.js";
import { openCsvInput } from "../batch/csv-input.js";
import { runPipeline, type BatchTally } from "../batch/pipeline.js";
import { startProgress } from "../batch/progress.js";
import { readPreviousOutput, type BatchFormat } from "../batch/resume.js";
import type { StoredChunk } from "../batch/chunker.js";
import { listenForInterrupt } from "../batch/interrupt.js";
import { resumeCommand, resumeKeyNote } from "../batch/resume-hint.js";
import { readResumeState, resumeStatePath, writeResumeState } from "../batch/resume-state.js";
import { TextSink } from "../batch/sink.js";
import { renderSummary } from "../batch/summary.js";
import { BatchWriter } from "../batch/writer.js";
import { UsageError } from "../errors.js";
import { ExitCode } from "../exit-codes.js";
import { note } from "../terminal.js";

const HELP = `
Reads a CSV (or - for stdin) and writes one output row per input row, in input order: the input's columns
followed by the result columns (CSV), or one JSON object per line (JSONL). The ICCID column is --column,
else the one named iccid/ICCID/sim_number/… (a name saying ICCID before one saying only SIM, such as
sim_id), else the only column, else the one whose values read as ICCIDs. A header row is detected, and
the field separator: the one a first line sep=X names, else the one of , ; and tab that the first line
holds most of (else --delimiter). The output CSV is comma-separated whatever the input's separator.
Memory stays flat for any file size.

Nothing the server answered (and charged) is lost. Ctrl-C stops cleanly: no new request starts, the
answers of those in flight are written (a second Ctrl-C drops them), the output holds whole rows, and
--resume carries on after them. When a run stops on an error (quota, rate limit, network), rows answered
after an unanswered one wait in OUT.resume.jsonl, and --resume writes them without asking again. Each
chunk is asked for under an idempotency key made from its rows: a chunk the server answered but whose
answer was lost (a crash, a cut connection) is answered again by --resume, not charged again. A reader
that closes stdout early (| head) stops the run as Ctrl-C does; the command then says how many answered
rows it could not write, and exits 0.

Exit status: 0 all rows looked up, 3 some rows were malformed (see --errors), 4 key or subscription
problem, 5 rate limit or quota, 130 interrupted.

Examples:
  $ iccid batch examples/sims.csv --out results.csv
  $ iccid batch sims.csv --column "SIM number" --out results.jsonl --errors failed.jsonl
  $ cat sims.csv | iccid batch - --format jsonl | jq .result.country
  $ iccid batch big.csv --out results.csv --concurrency 8
  $ iccid batch big.csv --out results.csv --resume     # after Ctrl-C or an error
`;

interface BatchOptions {
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

function positiveInt(max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`must be a whole number from 1 to ${max}`);
    return n;
  };
}

/** --delimiter's value: one character, or "tab". */
function fieldSeparator(value: string): string {
  const separator = value === "tab" ? "\t" : value;
  if (!isCsvSeparator(separator)) throw new InvalidArgumentError('must be one character (or "tab"), not a quote or a line end');
  return separator;
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

async function runBatch(ctx: CommandContext, file: string, options: BatchOptions, args: readonly string[]): Promise<void> {
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
  const progress = quiet ? { update() {}, stop() {} } : await startProgress(term);
  const interrupt = listenForInterrupt(term);
  const started = Date.now();
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
  if (interrupted) ctx.setExitCode(ExitCode.interrupted);
  else if (tally.failed > 0) ctx.setExitCode(ExitCode.rowsFailed);
}

export function batchCommand(ctx: CommandContext, args: () => readonly string[]): Command {
  return new Command("batch")
    .description("look up every ICCID of a CSV file (any size), writing CSV or JSONL in input order")
    .argument("<file>", "CSV file, or - for stdin")
    .option("--column <name>", "the column holding ICCIDs: its header name, or its 1-based number")
    .option("--delimiter <char>", "the input's field separator, one character or tab (default: detected: , ; or tab)", fieldSeparator)
    .option("--out <file>", "write results here instead of stdout")
    .addOption(new Option("--format <format>", "output format (default: jsonl for a .jsonl/.ndjson --out, else csv)").choices(["csv", "jsonl"]))
    .option("--errors <file>", "also write the failed (malformed) rows here, in the output format")
    .option("--concurrency <n>", "batch requests in flight at once (1-64)", positiveInt(64), 4)
    .option("--resume", "skip the rows already in --out and append the rest")
    .addOption(new Option("-o, --output <format>").hideHelp())
    .addOption(new Option("--json").hideHelp())
    .option("-q, --quiet", "no progress and no summary on stderr (errors still show)")
    .addHelpText("after", ctx.helpFooter(HELP))
    .action((file: string, options: BatchOptions) => runBatch(ctx, file, options, args()));
}
