import { Command } from "commander";
import { counted } from "@iccid/core";
import { exportRows } from "../dump.js";
import { withStore } from "../store-access.js";

export function exportCommand(): Command {
  return new Command("export")
    .description("write every row of the database as JSON lines (to move between SQLite and PostgreSQL)")
    .option("--out <file>", "write to a file instead of standard output")
    .action(async (opts: { out?: string }, command: Command) => {
      const count = await withStore(command, (store) => exportRows(store, opts.out));
      process.stderr.write(`exported ${counted(count, "row")}\n`);
    });
}
