import { fileURLToPath } from "node:url";
import { median } from "../lib/load.mjs";
import { runCommand } from "../lib/processes.mjs";
import { row } from "../lib/table.mjs";

const CLI = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));

/** `iccid --version` wall time vs `node -e 0`: what the CLI's imports cost before it does anything. */
export async function startupRows({ settings }) {
  const runs = settings.quick ? 7 : 15;
  const cli = [];
  const bare = [];
  for (let i = 0; i < runs; i++) {
    cli.push((await runCommand(process.execPath, [CLI, "--version"])).ms);
    bare.push((await runCommand(process.execPath, ["-e", "0"])).ms);
  }
  return [row("CLI start-up, iccid --version (ms)", median(cli), median(bare), "ms vs node -e 0", null)];
}
