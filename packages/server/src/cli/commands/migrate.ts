import { Command } from "commander";
import { withStore } from "../store-access.js";

export function migrateCommand(): Command {
  return new Command("migrate").description("create or upgrade the database schema").action(async (_opts, command: Command) => {
    await withStore(command, async () => {}, { create: true });
    process.stderr.write("database is up to date\n");
  });
}
