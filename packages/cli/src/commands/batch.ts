import { Command, InvalidArgumentError, Option } from "commander";
import { isCsvSeparator } from "@iccid/core/grammar";
import type { CommandContext } from "../command-context.js";
import type { BatchOptions } from "../batch/run.js";

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
    .action(async (file: string, options: BatchOptions) => (await import("../batch/run.js")).runBatch(ctx, file, options, args()));
}
