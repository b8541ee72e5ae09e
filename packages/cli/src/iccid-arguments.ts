import { UsageError } from "./errors.js";
import { readStdin } from "./prompt.js";
import type { Terminal } from "./terminal.js";

/** The numbers a command was given (`lookup`, `validate`, `eid`): its arguments, with "-" replaced by the non-empty lines of stdin. */
export async function iccidArguments(term: Terminal, args: readonly string[], what = "ICCIDs"): Promise<string[]> {
  if (!args.includes("-")) return [...args];
  const lines = (await readStdin(term)).split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
  const iccids = args.flatMap((arg) => (arg === "-" ? lines : [arg]));
  if (iccids.length === 0) throw new UsageError(`no ${what}: stdin was empty`);
  return iccids;
}
