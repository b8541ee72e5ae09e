import { UsageError } from "./errors.js";
import { readStdin } from "./prompt.js";
import type { Terminal } from "./terminal.js";

/** The ICCIDs a command was given (`lookup`, `validate`): its arguments, with "-" replaced by the non-empty lines of stdin. */
export async function iccidArguments(term: Terminal, args: readonly string[]): Promise<string[]> {
  if (!args.includes("-")) return [...args];
  const lines = (await readStdin(term)).split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
  const iccids = args.flatMap((arg) => (arg === "-" ? lines : [arg]));
  if (iccids.length === 0) throw new UsageError("no ICCIDs: stdin was empty");
  return iccids;
}
