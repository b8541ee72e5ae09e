import { allNodes, type TreeNode } from "./command-tree.js";

// The completion scripts for bash, zsh and fish, written from the command tree. zsh runs the bash one
// through its own bashcompinit, the shell's supported way to load a bash completion.

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

const wordsOf = (node: TreeNode) => [...node.commands.map((c) => c.path.split(" ").at(-1)!), ...node.values, ...node.options.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f))];
const quoteSh = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bash(root: TreeNode, name: string): string {
  const fn = `_${name}_completion`;
  const nodes = allNodes(root);
  const words = nodes.map((n) => `    ${quoteSh(n.path)}) echo ${quoteSh(wordsOf(n).join(" "))} ;;`).join("\n");
  const choices = nodes
    .flatMap((n) => n.options.filter((o) => o.choices).map((o) => `    ${quoteSh(`${n.path}|${o.long}`)}) echo ${quoteSh(o.choices!.join(" "))} ;;`))
    .join("\n");
  const valued = [...new Set(nodes.flatMap((n) => n.options.filter((o) => o.takesValue).flatMap((o) => [o.long, o.short].filter(Boolean))))].join("|");
  return `# ${name} completion for bash (\`${name} completion bash\`), written from the command tree.
${fn}_words() {
  case "$1" in
${words}
  esac
}
${fn}_choices() {
  case "$1" in
${choices}
  esac
}
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) continue ;; esac
    case " $(${fn}_words "$path") " in *" $w "*) path="\${path:+$path }$w" ;; esac
  done
  local choices
  choices="$(${fn}_choices "$path|$prev")"
  if [[ -n "$choices" ]]; then
    COMPREPLY=($(compgen -W "$choices" -- "$cur"))
    return
  fi
  case "$prev" in ${valued || "--"}) return ;; esac
  COMPREPLY=($(compgen -W "$(${fn}_words "$path")" -- "$cur"))
}
complete -o default -F ${fn} ${name}
`;
}

function zsh(root: TreeNode, name: string): string {
  return `#compdef ${name}
# ${name} completion for zsh (\`${name} completion zsh\`): the bash completion, through zsh's bashcompinit.
autoload -U +X bashcompinit && bashcompinit
${bash(root, name)}`;
}

const quoteFish = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

function fish(root: TreeNode, name: string): string {
  const lines = [`# ${name} completion for fish (\`${name} completion fish\`), written from the command tree.`, `complete -c ${name} -f`];
  for (const node of allNodes(root)) {
    const path = node.path ? node.path.split(" ") : [];
    const below = node.commands.map((c) => c.path.split(" ").at(-1)!);
    // Here: every word of the path seen, and none of the commands below it yet.
    const here = [...path.map((w) => `__fish_seen_subcommand_from ${w}`), ...(below.length ? [`not __fish_seen_subcommand_from ${below.join(" ")}`] : [])];
    const when = here.length ? ` -n ${quoteFish(here.join("; and "))}` : ` -n ${quoteFish("__fish_use_subcommand")}`;
    if (node.values.length) lines.push(`complete -c ${name}${when} -a ${quoteFish(node.values.join(" "))}`);
    for (const sub of node.commands) lines.push(`complete -c ${name}${when} -a ${sub.path.split(" ").at(-1)!} -d ${quoteFish(sub.description)}`);
    for (const o of node.options) {
      const flags = [o.long && `-l ${o.long.slice(2)}`, o.short && `-s ${o.short.slice(1)}`].filter(Boolean).join(" ");
      const value = o.choices ? ` -x -a ${quoteFish(o.choices.join(" "))}` : o.takesValue ? " -r -F" : "";
      lines.push(`complete -c ${name}${when} ${flags}${value} -d ${quoteFish(o.description)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The completion script for `shell`, for the command `name` whose tree is `root`. */
export function completionScript(shell: Shell, root: TreeNode, name: string): string {
  return shell === "bash" ? bash(root, name) : shell === "zsh" ? zsh(root, name) : fish(root, name);
}
