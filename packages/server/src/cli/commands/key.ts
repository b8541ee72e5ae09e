import { Command, Option } from "commander";
import { KEY_SCOPES, parseDuration, type KeyScope } from "@iccid/core";
import { Accounts } from "../../services/accounts.js";
import { ApiKeys } from "../../services/api-keys.js";
import { systemClock } from "../../time.js";
import { UsageError } from "../input.js";
import { operatorOrigin } from "../operator-origin.js";
import { withStore } from "../store-access.js";

/** `--expires`: a duration from now (90d) or an RFC 3339 time, handed to the service as RFC 3339. */
function expiresAt(value: string): string {
  const after = parseDuration(value);
  return after === undefined ? value : new Date(systemClock.now() + after).toISOString();
}

export function keyCommand(): Command {
  const key = new Command("key").description("manage API keys");
  key
    .command("create")
    .description("create an API key and print it (shown once)")
    .requiredOption("--email <email>", "account email")
    .option("--name <name>", "a name to recognise the key by")
    .addOption(
      new Option("--scope <scope...>", "what the key may do (repeat for several; default: every scope)").choices([...KEY_SCOPES]),
    )
    .option("--expires <when>", "when the key stops working: a duration (90d, 24h) or an RFC 3339 time; default never")
    .action(async (opts: { email: string; name?: string; scope?: KeyScope[]; expires?: string }, command: Command) => {
      if (opts.name !== undefined && opts.name.trim() === "") throw new UsageError("--name must not be empty");
      const created = await withStore(command, async (store) => {
        const owner = await new Accounts(store, systemClock).byEmail(opts.email);
        return new ApiKeys(store, systemClock).create(owner.id, opts.name ?? null, {
          scopes: opts.scope && [...new Set(opts.scope)],
          expiresAt: opts.expires === undefined ? undefined : expiresAt(opts.expires),
          origin: operatorOrigin(),
        });
      });
      process.stdout.write(`${created.key}\n`);
    });
  return key;
}
