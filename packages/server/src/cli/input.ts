import { InvalidInput } from "../domain/refusals.js";
import { assertPassword } from "../services/accounts.js";
import { readFileSync } from "node:fs";
import { randomBase62 } from "../auth/secrets.js";

/** Standard input as text, without its final line break (for `--password-stdin`). */
export function readStdin(): string {
  return readFileSync(0, "utf8").replace(/\r?\n$/, "");
}

/** A commander argument parser for whole numbers ≥ 0 that names the option in its error. */
export const wholeNumber = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0 (got "${value}")`);
  return n;
};

/** A bad command line found after parsing (a missing option that depends on another): exit 2, like commander's own. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

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
