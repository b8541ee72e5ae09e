/** A word quoted for a POSIX shell. */
export const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The command and arguments that run `argv` on a pseudo-terminal of `columns` columns through util-linux
 * `script`, so its stdout and stderr are TTYs as in a user's shell (a pty starts with no size; this gives
 * it one, as a terminal window would). Both streams arrive merged on the child's stdout, with CRLF line ends.
 */
export function onTerminal(argv: readonly string[], columns = 160): [command: string, args: string[]] {
  return ["script", ["-qec", `stty cols ${columns} rows 50; ${argv.map(shellQuote).join(" ")}`, "/dev/null"]];
}
