import { parseIccid } from "@iccid/core/grammar";
import { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { ExitCode } from "../exit-codes.js";
import { iccidArguments } from "../iccid-arguments.js";
import { palette } from "../output/colour.js";
import { chooseFormat, outputOptions, type OutputFormat } from "../output/format.js";
import type { LookupOutcome } from "../output/lookup-columns.js";
import { renderOutcomes } from "../output/lookup-view.js";

const HELP = `
Decodes ICCIDs on the server: validity, country, issuer and account number. One ICCID uses the lookup
endpoint; several go out as batches. An ICCID with bad grammar is reported without a request.
Exit status: 0 when every ICCID got a result (valid or not), 3 when some were malformed.

Examples:
  $ iccid lookup 89441000000000000018
  $ iccid lookup 89441000000000000018 8901260123456789012 --json
  $ iccid lookup 89441000000000000018 --output csv > result.csv
  $ iccid lookup 89441000000000000018 | cut -f4        # piped: tab-separated, no header
  $ grep -o '89[0-9]*' modem.log | iccid lookup -      # - reads ICCIDs from stdin, one per line
`;

/** Looks up the well-formed ICCIDs (keeping argument order) and reports malformed ones in place. */
async function lookUp(ctx: CommandContext, iccids: readonly string[]): Promise<LookupOutcome[]> {
  const outcomes: (LookupOutcome | undefined)[] = iccids.map((input) => {
    const parsed = parseIccid(input);
    return parsed.ok ? undefined : { input, ok: false, error: parsed.error };
  });
  const pending = iccids.filter((_, i) => outcomes[i] === undefined);
  const results: LookupOutcome[] = [];
  if (pending.length > 0) {
    const client = await ctx.apiClient();
    if (pending.length === 1) {
      results.push({ input: pending[0]!, ok: true, result: await client.iccid.lookup(pending[0]!) });
    } else {
      for await (const item of client.iccid.batchAll(pending)) {
        const input = pending[item.index]!;
        results.push(item.ok ? { input, ok: true, result: item.result } : { input, ok: false, error: item.error });
      }
    }
  }
  let next = 0;
  return outcomes.map((outcome) => outcome ?? results[next++]!);
}

export function lookupCommand(ctx: CommandContext): Command {
  const command = new Command("lookup")
    .description("decode ICCIDs: validity, country, issuer (uses your API key and quota)")
    .argument("<iccid...>", "one or more ICCIDs (spaces, dashes, dots and F padding are fine); - reads them from stdin, one per line")
    .addHelpText("after", ctx.helpFooter(HELP));
  for (const option of outputOptions()) command.addOption(option);
  return command.action(async (args: string[], options: { output?: OutputFormat; json?: boolean }) => {
    const outcomes = await lookUp(ctx, await iccidArguments(ctx.term, args));
    const format = chooseFormat(options, ctx.term);
    ctx.term.stdout.write(renderOutcomes(outcomes, format, palette(ctx.term.stdoutColor && format === "table")));
    if (outcomes.some((o) => !o.ok)) ctx.setExitCode(ExitCode.rowsFailed);
  });
}
