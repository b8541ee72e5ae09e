import { InvalidInput } from "../domain/refusals.js";
import { assertPassword } from "../services/accounts.js";
import { closeSync, createReadStream, fstatSync, openSync, readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { randomBase62 } from "../auth/secrets.js";

/** A bad command line found after parsing (a missing option that depends on another): exit 2, like commander's own. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Standard input as text, without its final line break (for `--password-stdin`). */
export function readStdin(): string {
  return readFileSync(0, "utf8").replace(/\r?\n$/, "");
}

/**
 * A commander argument parser for whole numbers ≥ `min`: one rule and one message per option, whatever
 * the wrong value (negative, below the minimum, a fraction, a word), and always a usage error (exit 2).
 */
export const wholeNumber =
  (name: string, min = 0) =>
  (value: string): number => {
    const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`${name} must be a whole number ≥ ${min} (got "${value}")`);
    return n;
  };

/** The password for `account create|password`: from stdin (checked here, so a short one is a usage error) or generated. */
export function chosenPassword(fromStdin: boolean | undefined): { password: string; generated: boolean } {
  if (!fromStdin) return { password: randomBase62(20), generated: true };
  const password = readStdin();
  try {
    assertPassword(password);
  } catch (error) {
    throw error instanceof InvalidInput ? new UsageError(error.message) : error;
  }
  return { password, generated: false };
}

/**
 * Opens the file an import reads (`-`: standard input), or says in words why it cannot: no such file,
 * permission denied, a folder; any other cause as Node says it.
 */
export function openInput(file: string): Readable {
  if (file === "-") return process.stdin;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new Error(`cannot read ${file}: ${e.code === "ENOENT" ? "no such file" : e.code === "EACCES" ? "permission denied" : e.message}`);
  }
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new Error(`cannot read ${file}: is a folder`);
  }
  return createReadStream(file, { fd });
}
