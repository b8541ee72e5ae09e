import { KEY_SCOPES } from "@iccid/core/grammar";
import type { KeyScope } from "@iccid/sdk";
import { Argument, Command, InvalidArgumentError, Option } from "commander";
import type { CommandContext } from "../command-context.js";
import { updateConfig } from "../config.js";
import { maskApiKey } from "../credentials.js";
import { palette } from "../output/colour.js";
import { chooseFormat, outputOptions, type OutputFormat } from "../output/format.js";
import { renderKeys } from "../output/keys-view.js";
import { expiresOption, graceOption } from "../durations.js";
import { CliError } from "../errors.js";
import { note } from "../terminal.js";
import { withSession } from "../with-session.js";

const HELP = `
Manages the API keys of the account you are logged in to (run \`iccid login\` first).

Examples:
  $ iccid keys list
  $ iccid keys create --name "billing export" --save     # prints the key once and stores it in the config
  $ iccid keys create --name dashboard --scope usage:read --expires 90d
  $ iccid keys roll key_2c9f0e7a --grace 24h              # a new key; the old one works for 24 more hours
  $ iccid keys revoke key_2c9f0e7a
`;

function listCommand(ctx: CommandContext): Command {
  const command = new Command("list")
    .description("list the account's API keys (never the secrets)")
    .addHelpText("after", "\nExamples:\n  $ iccid keys list\n  $ iccid keys list --json | jq -r '.[] | select(.revoked_at == null) | .id'\n");
  for (const option of outputOptions()) command.addOption(option);
  return command.action(async (options: { output?: OutputFormat; json?: boolean }) => {
    const { data: keys } = await withSession(ctx, (client) => client.keys.list());
    const format = chooseFormat(options, ctx.term);
    ctx.term.stdout.write(renderKeys(keys, format, palette(ctx.term.stdoutColor && format === "table")));
  });
}

function createCommand(ctx: CommandContext): Command {
  return new Command("create")
    .description("create an API key; the secret is printed this once")
    .option("--name <name>", "a label to tell keys apart (up to 100 characters)")
    .addOption(
      new Option("--scope <scope...>", "what the key may do: lookup, usage:read (repeat for both; default: both)").choices([...KEY_SCOPES]),
    )
    .addOption(new Option("--expires <when>", "when the key stops working: a duration (90d, 24h) or an RFC 3339 time; default never").argParser(expiresOption))
    .option("--save", "also store the key in the config file as api_key")
    .option("--json", "print the whole key record as JSON (secret included)")
    .addHelpText(
      "after",
      '\nExamples:\n  $ iccid keys create --name "billing export"\n  $ iccid keys create --name laptop --save\n' +
        "  $ iccid keys create --name dashboard --scope usage:read --expires 90d\n",
    )
    .action(async (options: { name?: string; scope?: KeyScope[]; expires?: string; save?: boolean; json?: boolean }) => {
      const params = {
        ...(options.name ? { name: options.name } : {}),
        ...(options.scope ? { scopes: [...new Set(options.scope)] } : {}),
        ...(options.expires ? { expires_at: options.expires } : {}),
      };
      const created = await withSession(ctx, (client) => client.keys.create(params)).catch(async (error: unknown) => {
        // A retry after a lost answer: the server created the key then, and never shows a secret twice.
        const { isKeyAlreadyCreatedError } = await import("@iccid/sdk"); // loaded by then: withSession made the client
        if (!isKeyAlreadyCreatedError(error)) throw error;
        const id = error.record.id;
        throw new CliError(`the key ${id} was created, but its secret was lost with the first answer: roll it with \`iccid keys roll ${id}\``);
      });
      ctx.term.stdout.write(options.json ? JSON.stringify(created, null, 2) + "\n" : created.key + "\n");
      const until = created.expires_at ? `, working until ${created.expires_at}` : "";
      if (options.save) {
        await updateConfig(ctx.term.env, (config) => ({ ...config, api_key: created.key }));
        note(ctx.term, `Created ${created.id} (${created.scopes.join(", ")}${until}) and saved it as api_key (${maskApiKey(created.key)}).`);
      } else {
        note(ctx.term, `Created ${created.id} (${created.scopes.join(", ")}${until}). Copy the key now: it is not shown again.`);
      }
    });
}

function rollCommand(ctx: CommandContext): Command {
  return new Command("roll")
    .description("replace a key by a new one with its name, scopes and expiry; the old one keeps working for --grace")
    .addArgument(new Argument("<id>", "the key id (key_…), from `iccid keys list`").argParser(keyId))
    .addOption(new Option("--grace <duration>", "how long the old key keeps working: 0s to 7d (default 0s: it stops at once)").argParser(graceOption))
    .option("--save", "also store the new key in the config file as api_key")
    .option("--json", "print the new key's whole record as JSON (secret included)")
    .addHelpText("after", "\nExamples:\n  $ iccid keys roll key_2c9f0e7a --grace 24h\n  $ iccid keys roll key_2c9f0e7a --save\n")
    .action(async (id: string, options: { grace?: number; save?: boolean; json?: boolean }) => {
      const rolled = await withSession(ctx, (client) => client.keys.roll(id, options.grace === undefined ? {} : { grace_seconds: options.grace }));
      ctx.term.stdout.write(options.json ? JSON.stringify(rolled, null, 2) + "\n" : rolled.key + "\n");
      const old = options.grace ? `${id} keeps working for ${options.grace} s more` : `${id} stopped working`;
      if (options.save) await updateConfig(ctx.term.env, (config) => ({ ...config, api_key: rolled.key }));
      note(ctx.term, `Rolled into ${rolled.id}; ${old}.${options.save ? ` Saved the new key as api_key (${maskApiKey(rolled.key)}).` : " Copy the new key now: it is not shown again."}`);
    });
}

/** A key id as the server makes them (`key_` and letters or digits): anything else is a usage error, before any request. */
function keyId(value: string): string {
  if (/^key_[0-9A-Za-z]{1,64}$/.test(value)) return value;
  throw new InvalidArgumentError("not a key id: ids look like key_2c9f0e7a (see `iccid keys list`)");
}

function revokeCommand(ctx: CommandContext): Command {
  return new Command("revoke")
    .description("revoke an API key (it stops working at once; revoking twice is fine)")
    .addArgument(new Argument("<id>", "the key id (key_…), from `iccid keys list`").argParser(keyId))
    .addHelpText("after", "\nExamples:\n  $ iccid keys revoke key_2c9f0e7a\n")
    .action(async (id: string) => {
      await withSession(ctx, (client) => client.keys.revoke(id));
      note(ctx.term, `Revoked ${id}.`);
    });
}

export function keysCommand(ctx: CommandContext): Command {
  return new Command("keys")
    .description("list, create, roll and revoke API keys (needs `iccid login`)")
    .addCommand(listCommand(ctx))
    .addCommand(createCommand(ctx))
    .addCommand(rollCommand(ctx))
    .addCommand(revokeCommand(ctx))
    .addHelpText("after", ctx.helpFooter(HELP));
}
