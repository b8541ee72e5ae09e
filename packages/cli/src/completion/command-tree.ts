import type { Command, Option } from "commander";

// The command tree as the shell completions need it, read from commander's own objects: the completions
// cannot drift from the commands, as a hand-written script would.

export interface TreeNode {
  /** The words that lead here from `iccid` ("" for the top, "keys create"). */
  path: string;
  description: string;
  commands: TreeNode[];
  options: TreeOption[];
  /** The fixed values of its first argument (`completion <shell>`: bash, zsh, fish), else none. */
  values: readonly string[];
}

export interface TreeOption {
  /** `--out`, and `-o` when it has one. */
  long: string | undefined;
  short: string | undefined;
  description: string;
  /** Whether a value follows it; `choices` when commander knows them. */
  takesValue: boolean;
  choices: readonly string[] | undefined;
}

function optionOf(option: Option): TreeOption {
  return {
    long: option.long,
    short: option.short,
    description: option.description,
    takesValue: option.required || option.optional,
    choices: option.argChoices,
  };
}

/** Every command under `command`, with its options and those every command inherits (the top's). */
export function commandTree(command: Command, path = "", inherited: TreeOption[] = []): TreeNode {
  // --version is the top's alone; the others every command inherits.
  const own = command.options.filter((o) => !o.hidden).map(optionOf);
  const passedDown = own.filter((o) => o.long !== "--version");
  const help: TreeOption = { long: "--help", short: "-h", description: "show help", takesValue: false, choices: undefined };
  const options = [...own, ...inherited, help];
  const below = path === "" ? passedDown : inherited.concat(own.filter((o) => !inherited.some((i) => i.long === o.long)));
  return {
    path,
    description: command.description(),
    commands: command.commands.filter((c) => c.name() !== "help").map((c) => commandTree(c, path ? `${path} ${c.name()}` : c.name(), below)),
    options,
    values: command.registeredArguments[0]?.argChoices ?? [],
  };
}

/** Every node of the tree, the top first. */
export function allNodes(node: TreeNode): TreeNode[] {
  return [node, ...node.commands.flatMap(allNodes)];
}
