import { parseIccid } from "@iccid/core/grammar";
import { Command } from "commander";
import { ExitCode } from "../exit-codes.js";
import { iccidArguments } from "../iccid-arguments.js";
import { palette } from "../output/colour.js";
import { chooseFormat, outputOptions, type OutputFormat } from "../output/format.js";
import { renderValidation } from "../output/validate-view.js";
import type { CommandContext } from "../command-context.js";

const EXAMPLES = `
Checks the ICCID grammar and the Luhn check digit on this machine: no API key, no network, no quota.
Exit status: 0 when every ICCID is valid, 3 when any is not (malformed or a wrong check digit), 2 on a
usage error; 1 is kept for errors, as for every command.

Examples:
  $ iccid validate 89441000000000000018
  $ iccid validate "8944 1000 0000 0000 0018" 89441000000000000019 --json
  $ iccid validate 89441000000000000018 && echo ok
  $ cut -d, -f2 sims.csv | iccid validate - --output csv   # - reads ICCIDs from stdin, one per line
`;

export function validateCommand(ctx: CommandContext): Command {
  const command = new Command("validate")
    .description("check ICCIDs offline (format and Luhn check digit)")
    .argument("<iccid...>", "one or more ICCIDs (spaces, dashes, dots and F padding are fine); - reads them from stdin, one per line")
    .addHelpText("after", ctx.helpFooter(EXAMPLES));
  for (const option of outputOptions()) command.addOption(option);
  return command.action(async (args: string[], options: { output?: OutputFormat; json?: boolean }) => {
    const results = (await iccidArguments(ctx.term, args)).map((iccid) => parseIccid(iccid));
    const format = chooseFormat(options, ctx.term);
    ctx.term.stdout.write(renderValidation(results, format, palette(ctx.term.stdoutColor && format === "table")));
    ctx.setExitCode(results.every((r) => r.ok && r.valid) ? ExitCode.ok : ExitCode.rowsFailed);
  });
}
