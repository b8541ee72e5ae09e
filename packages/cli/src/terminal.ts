/**
 * Where output goes and what it may look like. stdout carries data only; notes, spinners and progress
 * go to stderr. Colour and decoration depend on each stream being a TTY, and NO_COLOR turns colour off
 * whatever the stream is (https://no-color.org: any non-empty value).
 */
export interface Terminal {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** Colour on stdout (data) and on stderr (notes) respectively. */
  readonly stdoutColor: boolean;
  readonly stderrColor: boolean;
  readonly env: NodeJS.ProcessEnv;
}

export function processTerminal(proc: NodeJS.Process = process): Terminal {
  const noColor = Boolean(proc.env.NO_COLOR);
  const stdoutIsTTY = proc.stdout.isTTY === true;
  const stderrIsTTY = proc.stderr.isTTY === true;
  return {
    stdout: proc.stdout,
    stderr: proc.stderr,
    stdin: proc.stdin,
    stdoutIsTTY,
    stderrIsTTY,
    stdinIsTTY: proc.stdin.isTTY === true,
    stdoutColor: stdoutIsTTY && !noColor,
    stderrColor: stderrIsTTY && !noColor,
    env: proc.env,
  };
}

/** Writes one line of notes to stderr (never to stdout, which pipes read). */
export function note(term: Terminal, line: string): void {
  term.stderr.write(line + "\n");
}
