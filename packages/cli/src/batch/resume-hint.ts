/** Quotes one word for a POSIX shell, only when it needs it. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The arguments without `--api-key KEY` / `--api-key=KEY`: a secret is never printed (it would end up in CI logs). */
function withoutApiKey(args: readonly string[]): { words: string[]; hadKey: boolean } {
  const words: string[] = [];
  let hadKey = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      words.push(...args.slice(i));
      break;
    }
    if (arg === "--api-key") {
      hadKey = true;
      i++;
    } else if (arg.startsWith("--api-key=")) {
      hadKey = true;
    } else {
      words.push(arg);
    }
  }
  return { words, hadKey };
}

/**
 * The command that carries on where this run stopped: the same arguments, with `--resume` added. Built
 * from the real argv so that every flag the user gave (column, format, errors file) is kept, except the
 * API key (see resumeKeyNote).
 */
export function resumeCommand(args: readonly string[]): string {
  const { words } = withoutApiKey(args);
  if (!words.includes("--resume")) words.push("--resume");
  return ["iccid", ...words].map(shellWord).join(" ");
}

/** What to say in place of an API key given with --api-key: to pass the same key again. */
export function resumeKeyNote(args: readonly string[]): string | undefined {
  return withoutApiKey(args).hadKey ? "Pass the same API key again (--api-key or ICCID_API_KEY); it is not shown here." : undefined;
}
