import { createInterface } from "node:readline/promises";
import { CliError, UsageError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";
import type { Terminal } from "./terminal.js";

/** Asks for one line on the terminal (the question goes to stderr, keeping stdout for data). */
export async function promptLine(term: Terminal, question: string): Promise<string> {
  if (!term.stdinIsTTY) throw new UsageError(`no terminal to ask "${question.trim()}" on; pass it as a flag`);
  const rl = createInterface({ input: term.stdin, output: term.stderr, terminal: true });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/**
 * Asks for a secret without echoing it: the terminal goes to raw mode and keystrokes are read one by one.
 * Raw mode also swallows Ctrl-C, so it is handled here and ends the command with the interrupted status.
 */
export function promptHidden(term: Terminal, question: string): Promise<string> {
  const { stdin, stderr } = term;
  if (!term.stdinIsTTY) throw new UsageError("no terminal to ask for the password on; use --password-stdin");
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let secret = "";
    const finish = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
      if (error) reject(error);
      else resolve(secret);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(new CliError("interrupted", ExitCode.interrupted));
        if (char === "\u007f" || char === "\b") secret = secret.slice(0, -1);
        else if (char >= " ") secret += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}

/** All of stdin as text, without the one line break that `echo` or a here-string adds. */
export async function readStdin(term: Terminal): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of term.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}
