import { Command, CommanderError, InvalidArgumentError } from "commander";
import { CommandContext } from "./command-context.js";
import { auditCommand } from "./commands/audit.js";
import { batchCommand } from "./commands/batch.js";
import { completionCommand } from "./commands/completion.js";
import { configCommand } from "./commands/config.js";
import { eidCommand } from "./commands/eid.js";
import { keysCommand } from "./commands/keys.js";
import { loginCommand, logoutCommand } from "./commands/login.js";
import { lookupCommand } from "./commands/lookup.js";
import { usageCommand } from "./commands/usage.js";
import { validateCommand } from "./commands/validate.js";
import { whoamiCommand } from "./commands/whoami.js";
import type { GlobalOptions } from "./credentials.js";
import { ExitCode } from "./exit-codes.js";
import { describeFailure } from "./handler.js";
import { palette } from "./output/colour.js";
import { processTerminal, type Terminal } from "./terminal.js";
import { CLI_VERSION } from "./version.js";

const HELP = `
Credentials: --api-key > ICCID_API_KEY > config api_key. Server: --base-url > ICCID_BASE_URL > config
base_url > http://127.0.0.1:8080. NO_COLOR turns colour off. Data goes to stdout, notes to stderr.
Exit status: 0 ok, 1 error, 2 usage error, 3 some rows failed, 4 key/login/subscription (401/403),
5 rate limit or quota (429), 130 interrupted.

Examples:
  $ iccid config set api_key iccid_XXXXXXXXXXXXXXXXXXXXXXXXXXXX
  $ iccid lookup 89441000000000000018
  $ iccid lookup 89441000000000000018 --imsi 234150123456789
  $ iccid eid 89049032123451234512345678901235
  $ iccid validate 89441000000000000018
  $ iccid batch examples/sims.csv --out results.csv
  $ iccid usage
  $ iccid login --email you@example.com && iccid keys list
`;

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("must be a number of seconds above 0");
  return n;
}

/** Builds the command tree; `args` are the user's arguments, for hints such as the resume command. */
export function buildProgram(ctx: CommandContext, args: readonly string[]): Command {
  const program = new Command("iccid")
    .description("ICCID Lookup from the command line: look up, validate and batch-process SIM numbers")
    .version(CLI_VERSION, "-V, --version", "print the version")
    .option("--api-key <key>", "API key (default: ICCID_API_KEY, then the config file)")
    .option("--base-url <url>", "server URL (default: ICCID_BASE_URL, then the config file, then http://127.0.0.1:8080)")
    .option("--timeout <seconds>", "give up on a request attempt after this long (default: ICCID_TIMEOUT, then 30)", seconds)
    .option("--no-wait", "when rate limited, fail at once (exit 5) instead of waiting to retry")
    .helpCommand(true)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => ctx.term.stdout.write(text),
      writeErr: (text) => ctx.term.stderr.write(text),
      outputError: (text, write) => write(`iccid: ${text.replace(/^error: /, "usage error: ")}`),
    })
    .addHelpText("after", ctx.helpFooter(HELP));

  for (const command of [
    lookupCommand(ctx),
    eidCommand(ctx),
    validateCommand(ctx),
    batchCommand(ctx, () => args),
    usageCommand(ctx),
    loginCommand(ctx),
    logoutCommand(ctx),
    keysCommand(ctx),
    auditCommand(ctx),
    configCommand(ctx),
    whoamiCommand(ctx),
    completionCommand(ctx),
  ]) {
    program.addCommand(command);
  }
  inheritSettings(program);
  return program;
}

/** addCommand (unlike .command) does not pass exitOverride and output settings down; do it for the whole tree. */
function inheritSettings(parent: Command): void {
  for (const child of parent.commands) {
    child.copyInheritedSettings(parent);
    inheritSettings(child);
  }
}

/** Runs the CLI and returns its exit status; every failure is printed here, in one place, as one line. */
export async function main(argv: readonly string[] = process.argv, term: Terminal = processTerminal()): Promise<number> {
  let program: Command | undefined;
  const ctx = new CommandContext(term, () => (program?.opts() ?? {}) as GlobalOptions);
  program = buildProgram(ctx, argv.slice(2));
  try {
    await program.parseAsync([...argv]);
    return ctx.exitCode ?? ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed help, the version, or the usage error.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    const failure = await describeFailure(error);
    const paint = palette(term.stderrColor);
    term.stderr.write(`iccid: ${paint.red("error:")} ${failure.message}\n`);
    if (term.env.ICCID_DEBUG && error instanceof Error && error.stack) term.stderr.write(error.stack + "\n");
    return failure.exitCode;
  } finally {
    await ctx.close();
  }
}
