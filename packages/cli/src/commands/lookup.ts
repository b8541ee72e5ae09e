import { parseIccid, parseImsi } from "@iccid/core/grammar";
import { Command, InvalidArgumentError, Option } from "commander";
import type { FailedLookup, LookupResult } from "@iccid/core";
import { answerInOrder, itemOutcome, type InOrderReader } from "../answer-in-order.js";
import type { CommandContext } from "../command-context.js";
import { UsageError } from "../errors.js";
import { ExitCode } from "../exit-codes.js";
import { iccidArguments } from "../iccid-arguments.js";
import { palette } from "../output/colour.js";
import { chooseFormat, outputOptions, type OutputFormat } from "../output/format.js";
import { renderOutcomes } from "../output/lookup-view.js";

const HELP = `
Decodes ICCIDs on the server: validity, country, issuer and account number. One ICCID uses the lookup
endpoint; several go out as batches. An ICCID with bad grammar is reported without a request.

With --imsi (one ICCID), the server also reads the SIM's IMSI: its MCC, MNC, network and MVNO range, and
warns (imsi_country_mismatch) when its country is not the ICCID's. The table and --json show it; csv and
tsv keep the lookup row's columns.

Exit status: 0 when every ICCID got a result (valid or not), 3 when some were malformed.

Examples:
  $ iccid lookup 89441000000000000018
  $ iccid lookup 89441000000000000018 8901260123456789012 --json
  $ iccid lookup 89441000000000000018 --output csv > result.csv
  $ iccid lookup 89441000000000000018 | cut -f4        # piped: tab-separated, no header
  $ grep -o '89[0-9]*' modem.log | iccid lookup -      # - reads ICCIDs from stdin, one per line
  $ iccid lookup 89441000000000000018 --imsi 262011234567890
`;

/** The IMSI option's value, checked offline for its shape (14 or 15 digits); its MCC is the server's to know. */
function imsiValue(value: string): string {
  const parsed = parseImsi(value);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.error.message);
  return value;
}

/** How `iccid lookup` reads ICCIDs: the grammar check, then the server, with the IMSI (if any) beside a single one (answerInOrder puts malformed ones in place). */
function iccidReader(imsi: string | undefined): InOrderReader<LookupResult, FailedLookup["error"]> {
  return {
    parse: parseIccid,
    one: (client, iccid) => client.iccid.lookup(imsi === undefined ? iccid : { iccid, imsi }),
    async *many(client, iccids) {
      for await (const item of client.iccid.batchAll(iccids)) {
        yield itemOutcome(iccids[item.index]!, item);
      }
    },
  };
}

export function lookupCommand(ctx: CommandContext): Command {
  const command = new Command("lookup")
    .description("decode ICCIDs: validity, country, issuer (uses your API key and quota)")
    .argument("<iccid...>", "one or more ICCIDs (spaces, dashes, dots and F padding are fine); - reads them from stdin, one per line")
    .addHelpText("after", ctx.helpFooter(HELP));
  command.addOption(new Option("--imsi <imsi>", "the SIM's IMSI, read beside its ICCID (one ICCID only)").argParser(imsiValue));
  for (const option of outputOptions()) command.addOption(option);
  return command.action(async (args: string[], options: { output?: OutputFormat; json?: boolean; imsi?: string }) => {
    const iccids = await iccidArguments(ctx.term, args);
    if (options.imsi !== undefined && iccids.length !== 1) throw new UsageError(`--imsi goes with one ICCID; ${iccids.length} were given`);
    const outcomes = await answerInOrder(ctx, iccids, iccidReader(options.imsi));
    const format = chooseFormat(options, ctx.term);
    ctx.term.stdout.write(renderOutcomes(outcomes, format, palette(ctx.term.stdoutColor && format === "table")));
    if (outcomes.some((o) => !o.ok)) ctx.setExitCode(ExitCode.rowsFailed);
  });
}
