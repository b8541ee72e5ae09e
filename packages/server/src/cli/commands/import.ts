import { Command } from "commander";
import { counted } from "@iccid/core";
import { importRows } from "../dump.js";
import { openInput } from "../input.js";
import { withStore } from "../store-access.js";

export function importCommand(): Command {
  return new Command("import")
    .argument("<file>")
    .description("load an export into an empty database (use - for standard input)")
    .action(async (file: string, _opts, command: Command) => {
      const input = openInput(file);
      const count = await withStore(command, (store) => importRows(store, input), { create: true, seedPlan: false });
      process.stderr.write(`imported ${counted(count, "row")}\n`);
    });
}
