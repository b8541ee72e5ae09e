import { Option } from "commander";
import type { Terminal } from "../terminal.js";

export const OUTPUT_FORMATS = ["table", "json", "csv", "tsv"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `--output` and its `--json` shorthand, shared by every command that prints records. */
export function outputOptions(): Option[] {
  return [
    new Option("-o, --output <format>", "table (default on a terminal), tsv (default when piped), json or csv").choices(
      OUTPUT_FORMATS,
    ),
    new Option("--json", "same as --output json"),
  ];
}

/** The format asked for, else a table for a person at a terminal and tab-separated text for a pipe. */
export function chooseFormat(options: { output?: OutputFormat; json?: boolean }, term: Terminal): OutputFormat {
  if (options.json) return "json";
  if (options.output) return options.output;
  return term.stdoutIsTTY ? "table" : "tsv";
}
