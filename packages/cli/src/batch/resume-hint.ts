/** Quotes one word for a POSIX shell, only when it needs it. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that carries on where this run stopped: the same arguments, with `--resume` added.
 * Built from the real argv so that every flag the user gave (column, format, errors file) is kept.
 */
export function resumeCommand(args: readonly string[]): string {
  const words = args.includes("--resume") ? [...args] : [...args, "--resume"];
  return ["iccid", ...words].map(shellWord).join(" ");
}
