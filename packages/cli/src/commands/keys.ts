import type { IccidClient } from "@iccid/sdk";
import { Argument, Command, InvalidArgumentError } from "commander";
import type { CommandContext } from "../command-context.js";
import { updateConfig } from "../config.js";
import { maskApiKey } from "../credentials.js";
import { CredentialsError } from "../errors.js";
import { palette } from "../output/colour.js";
import { chooseFormat, outputOptions, type OutputFormat } from "../output/format.js";
import { renderKeys } from "../output/keys-view.js";
import { saveSession } from "../session-store.js";
import { note } from "../terminal.js";

const HELP = `
Manages the API keys of the account you are logged in to (run \`iccid login\` first).

Examples:
  $ iccid keys list
  $ iccid keys create --name "billing export" --save     # prints the key once and stores it in the config
  $ iccid keys revoke key_2c9f0e7a
`;

/** Runs a call with the stored session, then stores the session again (the server may have renewed it). */
async function withSession<T>(ctx: CommandContext, call: (client: IccidClient) => Promise<T>): Promise<T> {
  const client = await ctx.sessionClient();
  if (client.session.token === undefined) {
    throw new CredentialsError(`not logged in to ${client.baseUrl}: run \`iccid login\` first`);
  }
  try {
    return await call(client);
  } finally {
    await saveSession(ctx, client);
  }
}

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
    .option("--save", "also store the key in the config file as api_key")
    .option("--json", "print the whole key record as JSON (secret included)")
    .addHelpText("after", '\nExamples:\n  $ iccid keys create --name "billing export"\n  $ iccid keys create --name laptop --save\n')
    .action(async (options: { name?: string; save?: boolean; json?: boolean }) => {
      const created = await withSession(ctx, (client) => client.keys.create(options.name ? { name: options.name } : {}));
      ctx.term.stdout.write(options.json ? JSON.stringify(created, null, 2) + "\n" : created.key + "\n");
      if (options.save) {
        await updateConfig(ctx.term.env, (config) => ({ ...config, api_key: created.key }));
        note(ctx.term, `Created ${created.id} and saved it as api_key (${maskApiKey(created.key)}).`);
      } else {
        note(ctx.term, `Created ${created.id}. Copy the key now: it is not shown again.`);
      }
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
    .description("list, create and revoke API keys (needs `iccid login`)")
    .addCommand(listCommand(ctx))
    .addCommand(createCommand(ctx))
    .addCommand(revokeCommand(ctx))
    .addHelpText("after", ctx.helpFooter(HELP));
}
