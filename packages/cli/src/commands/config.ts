import { Argument, Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { checkSetting, SETTABLE_KEYS, type SettableKey } from "../config-schema.js";
import { configPath, updateConfig } from "../config.js";
import { maskApiKey } from "../credentials.js";
import { CliError, UsageError } from "../errors.js";
import { note } from "../terminal.js";

const HELP = `
Settings live in config.json (mode 0600) in $ICCID_CONFIG_DIR, else $XDG_CONFIG_HOME/iccid, else
~/.config/iccid. Flags and environment variables win over it: --api-key > ICCID_API_KEY > api_key, and
--base-url > ICCID_BASE_URL > base_url > http://127.0.0.1:8080.

Keys: ${SETTABLE_KEYS.join(", ")}

Examples:
  $ iccid config set api_key iccid_XXXXXXXXXXXXXXXXXXXXXXXXXXXX
  $ iccid config set base_url https://iccid.example.com
  $ iccid config get base_url
  $ iccid config list
`;

const keyArgument = () => new Argument("<key>", "setting name").choices(SETTABLE_KEYS);

function setCommand(ctx: CommandContext): Command {
  return new Command("set")
    .addHelpText("after", "\nExamples:\n  $ iccid config set base_url https://iccid.example.com\n")
    .description("store a setting")
    .addArgument(keyArgument())
    .argument("<value>", "its value")
    .action(async (key: SettableKey, value: string) => {
      const problem = checkSetting(key, value);
      if (problem) throw new UsageError(`${key} ${problem}`);
      const path = await updateConfig(ctx.term.env, (config) => ({ ...config, [key]: key === "base_url" ? value.replace(/\/+$/, "") : value }));
      note(ctx.term, `Saved ${key} in ${path}.`);
    });
}

function getCommand(ctx: CommandContext): Command {
  return new Command("get")
    .addHelpText("after", "\nExamples:\n  $ iccid config get base_url\n")
    .description("print a setting's value (exit status 1 when it is not set)")
    .addArgument(keyArgument())
    .action(async (key: SettableKey) => {
      const value = (await ctx.config())[key];
      if (value === undefined) throw new CliError(`${key} is not set in ${configPath(ctx.term.env)}`);
      ctx.term.stdout.write(value + "\n");
    });
}

function unsetCommand(ctx: CommandContext): Command {
  return new Command("unset")
    .addHelpText("after", "\nExamples:\n  $ iccid config unset api_key\n")
    .description("remove a setting")
    .addArgument(keyArgument())
    .action(async (key: SettableKey) => {
      const path = await updateConfig(ctx.term.env, (config) => {
        const { [key]: _removed, ...rest } = config;
        return rest;
      });
      note(ctx.term, `Removed ${key} from ${path}.`);
    });
}

function listCommand(ctx: CommandContext): Command {
  return new Command("list")
    .addHelpText("after", "\nExamples:\n  $ iccid config list\n")
    .description("print every setting as key=value (the API key masked)")
    .action(async () => {
      const config = await ctx.config();
      note(ctx.term, `# ${configPath(ctx.term.env)}`);
      let text = "";
      if (config.api_key !== undefined) text += `api_key=${maskApiKey(config.api_key)}\n`;
      if (config.base_url !== undefined) text += `base_url=${config.base_url}\n`;
      if (config.session) text += `session=${config.session.email ?? "logged in"} @ ${config.session.base_url}\n`;
      ctx.term.stdout.write(text);
    });
}

function pathCommand(ctx: CommandContext): Command {
  return new Command("path")
    .description("print the config file's path")
    .addHelpText("after", "\nExamples:\n  $ cat \"$(iccid config path)\"\n")
    .action(() => {
    ctx.term.stdout.write(configPath(ctx.term.env) + "\n");
  });
}

export function configCommand(ctx: CommandContext): Command {
  return new Command("config")
    .description("read and write settings (api_key, base_url)")
    .addCommand(setCommand(ctx))
    .addCommand(getCommand(ctx))
    .addCommand(listCommand(ctx))
    .addCommand(unsetCommand(ctx))
    .addCommand(pathCommand(ctx))
    .addHelpText("after", ctx.helpFooter(HELP));
}
