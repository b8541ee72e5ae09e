import { BATCH_MAX_ITEMS, parseEid } from "@iccid/core/grammar";
import { Command } from "commander";
import type { EidBatchItemError, EidResult } from "@iccid/core/types";
import { answerInOrder, itemOutcome, type InOrderReader } from "../answer-in-order.js";
import type { CommandContext } from "../command-context.js";
import { ExitCode } from "../exit-codes.js";
import { iccidArguments } from "../iccid-arguments.js";
import { palette } from "../output/colour.js";
import { renderEids } from "../output/eid-view.js";
import { chooseFormat, outputOptions, type OutputFormat } from "../output/format.js";

const HELP = `
Reads EIDs (an eUICC's 32-digit identifier) on the server: the check digits, and for an SGP.02 EID
(89…) the country calling code and the eUICC issuer's identifier. Each EID read is one lookup of your
quota. An EID of the wrong shape is reported without a request.
Exit status: 0 when every EID got a result (valid or not), 3 when some were malformed.

Examples:
  $ iccid eid 89049032123451234512345678901235
  $ iccid eid "+CEID: 89049032123451234512345678901235" --json
  $ iccid eid 89049032123451234512345678901235 89001039240180124400000000000157 --output csv
  $ cat eids.txt | iccid eid -                          # - reads EIDs from stdin, one per line
`;

/** How `iccid eid` reads EIDs: the grammar check, then the server, one EID alone or batches of up to BATCH_MAX_ITEMS (answerInOrder puts malformed ones in place). */
const EID_READER: InOrderReader<EidResult, EidBatchItemError> = {
  parse: parseEid,
  one: (client, eid) => client.eid.lookup(eid),
  async *many(client, eids) {
    for (let start = 0; start < eids.length; start += BATCH_MAX_ITEMS) {
      const chunk = eids.slice(start, start + BATCH_MAX_ITEMS);
      const answer = await client.eid.batch(chunk);
      for (const item of answer.results) {
        yield itemOutcome(chunk[item.index]!, item);
      }
    }
  },
};

export function eidCommand(ctx: CommandContext): Command {
  const command = new Command("eid")
    .description("read EIDs (eUICC identifiers): check digits, country, issuer (uses your API key and quota)")
    .argument("<eid...>", "one or more EIDs (spaces, dashes and a modem's +CEID: line are fine); - reads them from stdin, one per line")
    .addHelpText("after", ctx.helpFooter(HELP));
  for (const option of outputOptions()) command.addOption(option);
  return command.action(async (args: string[], options: { output?: OutputFormat; json?: boolean }) => {
    const outcomes = await answerInOrder(ctx, await iccidArguments(ctx.term, args, "EIDs"), EID_READER);
    const format = chooseFormat(options, ctx.term);
    ctx.term.stdout.write(renderEids(outcomes, format, palette(ctx.term.stdoutColor && format === "table")));
    if (outcomes.some((o) => !o.ok)) ctx.setExitCode(ExitCode.rowsFailed);
  });
}
