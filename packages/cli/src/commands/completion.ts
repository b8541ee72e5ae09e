import { Argument, Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { commandTree } from "../completion/command-tree.js";
import { completionScript, SHELLS, type Shell } from "../completion/scripts.js";

const HELP = `
Prints a completion script for your shell: commands, subcommands, flags and the values of flags that have
a fixed set (--output, --granularity, …). Load it from your shell's start-up file:

  bash  $ echo 'source <(iccid completion bash)' >> ~/.bashrc
  zsh   $ echo 'source <(iccid completion zsh)' >> ~/.zshrc
  fish  $ iccid completion fish > ~/.config/fish/completions/iccid.fish
`;

export function completionCommand(ctx: CommandContext): Command {
  return new Command("completion")
    .description("print a shell completion script (bash, zsh or fish)")
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .addHelpText("after", ctx.helpFooter(HELP))
    .action((shell: Shell, _options, command: Command) => {
      ctx.term.stdout.write(completionScript(shell, commandTree(command.parent!), command.parent!.name()));
    });
}
