import { Command, Option } from "commander";
import { SERVER_VERSION } from "../app.js";
import { redactUrls } from "../auth/redacted-url.js";
import { Refusal } from "../domain/refusals.js";
import { accountCommand } from "./commands/account.js";
import { auditCommand } from "./commands/audit.js";
import { exportCommand } from "./commands/export.js";
import { importCommand } from "./commands/import.js";
import { issuersCommand } from "./commands/issuers.js";
import { keyCommand } from "./commands/key.js";
import { migrateCommand } from "./commands/migrate.js";
import { planCommand } from "./commands/plan.js";
import { startCommand } from "./commands/start.js";
import { endQuietlyOnClosedPipe } from "./closed-pipe.js";
import { UsageError } from "./input.js";
import { refusalInWords } from "./refusal-words.js";
import { SettingsError } from "./settings.js";

/** The `iccid-server` command tree: one file per command under ./commands. */
export function buildProgram(): Command {
  const program = new Command("iccid-server")
    .description("Self-hosted ICCID Lookup server")
    .version(SERVER_VERSION)
    .option("--db <path|url>", "SQLite file or postgres:// URL (env ICCID_DB, default ./data/iccid.db)")
    .addOption(new Option("--pg-pooler <mode>", "a pooler in transaction mode in front of PostgreSQL (env ICCID_PG_POOLER, default none)").choices(["none", "transaction"]))
    .option("--pg-direct-url <url>", "with --pg-pooler transaction: the same database without the pooler, to LISTEN (env ICCID_PG_DIRECT_URL; default: poll)")
    .option("--pg-pool-size <n>", "connections in the PostgreSQL pool (env ICCID_PG_POOL_SIZE, default 10)")
    .option("--query-timeout <seconds>", "store work past this is answered 503, a SQLite lock waited for this long (env ICCID_QUERY_TIMEOUT, default 5)")
    .showHelpAfterError()
    .exitOverride() // main() picks the exit codes
    .hook("preAction", (_program, action) => {
      // A command's output may go to a reader that stops early; the server (`start`) logs through its own
      // logger and is not one of them.
      if (action.name() === "start") return;
      endQuietlyOnClosedPipe(process.stdout);
      endQuietlyOnClosedPipe(process.stderr);
    });
  for (const command of [startCommand(), migrateCommand(), accountCommand(), planCommand(), keyCommand(), auditCommand(), issuersCommand(), exportCommand(), importCommand()]) {
    program.addCommand(command);
  }
  inheritSettings(program);
  return program;
}

/** addCommand (unlike .command) does not pass exitOverride and help settings down; do it for the whole tree. */
function inheritSettings(parent: Command): void {
  for (const child of parent.commands) {
    child.copyInheritedSettings(parent);
    inheritSettings(child);
  }
}

/** Runs the command; failures (a domain refusal among them) print one line, never a stack, and exit 1; usage errors exit 2. */
export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string };
    if (e.code?.startsWith("commander.")) process.exit(e.code === "commander.helpDisplayed" || e.code === "commander.version" ? 0 : 2);
    const words = error instanceof Refusal ? refusalInWords(error) : (e.message ?? String(error));
    // An error may echo the database or Redis URL it was about: never with its password.
    process.stderr.write(`iccid-server: ${redactUrls(words)}\n`);
    process.exit(error instanceof SettingsError || error instanceof UsageError ? 2 : 1);
  }
}
