import { Command } from "commander";
import { redactUrls } from "../../auth/redacted-url.js";
import { resolveSettings } from "../settings.js";
import { sayMigrated, withStore } from "../store-access.js";

export function migrateCommand(): Command {
  return new Command("migrate").description("create or upgrade the database schema").action(async (_opts, command: Command) => {
    const flags = command.optsWithGlobals();
    let migrated = false;
    const say = sayMigrated(flags);
    await withStore(command, async () => {}, { create: true, onMigrated: (versions) => ((migrated = true), say(versions)) });
    if (!migrated) process.stderr.write(`the database at ${redactUrls(resolveSettings(flags).db)} is up to date\n`);
  });
}
