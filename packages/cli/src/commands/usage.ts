import { GRANULARITIES, type Granularity } from "@iccid/core/grammar";
import { Command, Option } from "commander";
import type { CommandContext } from "../command-context.js";
import { dateArgument } from "../date-argument.js";
import { withSession } from "../with-session.js";
import { UsageError } from "../errors.js";
import { palette } from "../output/colour.js";
import { terminalColumns } from "../output/table.js";
import { renderUsage } from "../output/usage-view.js";

const HELP = `
Shows the current period (or --from/--to), the quota used and left, the plan's rate limit, totals and a
chart of lookups per day. Reading usage costs no quota.

Examples:
  $ iccid usage
  $ iccid usage --from 2026-11-01 --to 2026-12-01 --granularity day --by-key
  $ iccid usage --json | jq .quota.remaining
`;

interface UsageOptions {
  from?: string;
  to?: string;
  granularity: Granularity;
  byKey?: boolean;
  json?: boolean;
}

export function usageCommand(ctx: CommandContext): Command {
  return new Command("usage")
    .description("show quota, rate limit and lookups over time for your API key's account (signed in without a key: your account's)")
    .option("--from <date>", "start, inclusive (default: start of the current period)", dateArgument)
    .option("--to <date>", "end, exclusive (default: end of the current period)", dateArgument)
    .addOption(new Option("--granularity <unit>", "bucket size of the chart").choices(GRANULARITIES).default("day"))
    .option("--by-key", "break usage down by API key")
    .option("--json", "print the API's usage object as JSON")
    .addHelpText("after", ctx.helpFooter(HELP))
    .action(async (options: UsageOptions) => {
      if (options.from && options.to && Date.parse(options.from) >= Date.parse(options.to)) {
        throw new UsageError(`--from ${options.from} must be before --to ${options.to}`);
      }
      const params = { from: options.from, to: options.to, granularity: options.granularity, group_by: options.byKey ? ("api_key" as const) : undefined };
      // The key's account when a key is given; else the signed-in account's, through the session.
      const usage =
        (await ctx.apiKey()) === undefined && (await ctx.signedIn())
          ? await withSession(ctx, (client) => client.usage.forSession(params))
          : await (await ctx.apiClient()).usage.get(params);
      const text = options.json
        ? JSON.stringify(usage, null, 2) + "\n"
        : renderUsage(usage, options.granularity, palette(ctx.term.stdoutColor), terminalColumns(ctx.term.stdout, ctx.term.env));
      ctx.term.stdout.write(text);
    });
}
