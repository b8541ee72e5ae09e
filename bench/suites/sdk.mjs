import { fileURLToPath } from "node:url";
import { runCommand } from "../lib/processes.mjs";
import { row } from "../lib/table.mjs";

const SCRIPT = fileURLToPath(new URL("../../packages/sdk/bench/sdk-vs-undici.mjs", import.meta.url));

/** SDK lookup vs a raw undici.request doing the same call (the SDK's own A/B script, in its own process). */
export async function sdkRows({ settings }) {
  const args = [SCRIPT, "--rounds", String(settings.rounds), "--requests", settings.quick ? "1500" : "4000"];
  const run = await runCommand(process.execPath, args);
  if (run.code !== 0) throw new Error(`sdk bench failed: ${run.stderr}`);
  const line = run.stdout.trim().split("\n").at(-1);
  const result = JSON.parse(line);
  return [row("SDK lookup (req/s)", result.sdk_rps, result.raw_rps, "req/s vs raw undici.request", "≥ 0.9")];
}
