import { Command } from "commander";
import { Accounts } from "../../services/accounts.js";
import { ApiKeys } from "../../services/api-keys.js";
import { systemClock } from "../../time.js";
import { withStore } from "../store-access.js";

export function keyCommand(): Command {
  const key = new Command("key").description("manage API keys");
  key
    .command("create")
    .description("create an API key and print it (shown once)")
    .requiredOption("--email <email>", "account email")
    .option("--name <name>", "a name to recognise the key by")
    .action(async (opts: { email: string; name?: string }, command: Command) => {
      const created = await withStore(command, async (store) => {
        const owner = await new Accounts(store, systemClock).byEmail(opts.email);
        return new ApiKeys(store, systemClock).create(owner.id, opts.name ?? null);
      });
      process.stdout.write(`${created.key}\n`);
    });
  return key;
}
