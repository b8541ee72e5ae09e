import { Command } from "commander";
import { counted } from "@iccid/core";
import { importRows } from "../dump.js";
import { withStore } from "../store-access.js";

export function importCommand(): Command {
  return new Command("import")
    .argument("<file>")
    .description("load an export into an empty database (use - for standard input)")
    .action(async (file: string, _opts, command: Command) => {
      const count = await withStore(command, (store) => importRows(store, file), { seedPlan: false });
      process.stderr.write(`imported ${counted(count, "row")}\n`);
    });
}
