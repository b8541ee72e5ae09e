import type { AuditEvent } from "@iccid/sdk";
import { Command, InvalidArgumentError, Option } from "commander";
import type { CommandContext } from "../command-context.js";
import { renderAudit } from "../output/audit-view.js";
import { palette } from "../output/colour.js";
import { chooseFormat, outputOptions, type OutputFormat } from "../output/format.js";
import { withSession } from "../with-session.js";

const HELP = `
Shows the audit trail of the account you are logged in to, newest first: sign-ins, keys created, rolled
and revoked, and what the operator changed, with the address and User-Agent they came from.

Examples:
  $ iccid audit
  $ iccid audit --limit 10
  $ iccid audit --all --json | jq -r '.[] | select(.action == "key.created") | .target'
`;

function limit(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= 100)) throw new InvalidArgumentError("must be a whole number from 1 to 100");
  return n;
}

export function auditCommand(ctx: CommandContext): Command {
  const command = new Command("audit")
    .description("show the account's audit trail, newest first (needs `iccid login`)")
    .addOption(new Option("--limit <n>", "how many events (1-100)").argParser(limit).default(50))
    .option("--all", "every event, fetched a page at a time")
    .addHelpText("after", ctx.helpFooter(HELP));
  for (const option of outputOptions()) command.addOption(option);
  return command.action(async (options: { limit: number; all?: boolean; output?: OutputFormat; json?: boolean }) => {
    const events = await withSession(ctx, async (client) => {
      if (!options.all) return (await client.audit.list({ limit: options.limit })).events;
      const all: AuditEvent[] = [];
      for await (const event of client.audit.all({ limit: 100 })) all.push(event);
      return all;
    });
    const format = chooseFormat(options, ctx.term);
    ctx.term.stdout.write(renderAudit(events, format, palette(ctx.term.stdoutColor && format === "table")));
  });
}
