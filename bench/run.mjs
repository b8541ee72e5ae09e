#!/usr/bin/env node
// pnpm bench [--quick]: every hot path as a ratio against a baseline measured in the same run, in
// alternating rounds (median reported). Needs `pnpm build` first. Prints one table, writes
// bench/results.json; a full run exits 1 when a bar is missed. See bench/README.md.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { cliRows } from "./suites/cli.mjs";
import { scaleOutRows } from "./suites/scale-out.mjs";
import { sdkRows } from "./suites/sdk.mjs";
import { serverRows } from "./suites/server.mjs";
import { startupRows } from "./suites/startup.mjs";
import { placementNote, PLACEMENT } from "./lib/cores.mjs";
import { printTable } from "./lib/table.mjs";

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, only: { type: "string" } } });
// The quick run measures exactly as the full run does (same rounds, same work in each, same warm-up) but
// for the CLI, which has 3 rounds instead of 5: its rounds take 10 s each, every other suite's a fraction
// of a second. Round counts are odd, so that a median is one round's figure. Why rounds are short and
// many, and why the quick run cuts only the CLI's: bench/README.md, "What is measured".
const WORK = { rounds: 101, lookups: 1_000, batches: 10, warmUpRounds: 20, sdkCalls: 1_000, scaleOutLookups: 1_000, scaleOutRounds: 41 };
const CLI_ROUNDS = { full: 5, quick: 3 };
const settings = { quick: values.quick, cliRounds: CLI_ROUNDS[values.quick ? "quick" : "full"], ...WORK };

const suites = { server: serverRows, sdk: sdkRows, cli: cliRows, startup: startupRows, "scale-out": scaleOutRows };
const context = { settings };
const rows = [];
for (const [name, suite] of Object.entries(suites)) {
  if (values.only && !values.only.split(",").includes(name)) continue;
  const started = performance.now();
  process.stderr.write(`bench: ${name}…`);
  rows.push(...(await suite(context)));
  process.stderr.write(` ${Math.round((performance.now() - started) / 1000)} s\n`);
}

printTable(rows);
console.log(`\n${placementNote()}`);
const results = { date: new Date().toISOString(), node: process.version, quick: settings.quick, placement: PLACEMENT, rows };
writeFileSync(new URL("./results.json", import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
// A quick run's CLI medians are over fewer rounds: the bars are judged by the full run, which exits 1
// when one is missed.
if (settings.quick) {
  console.log(`\nquick run: ${CLI_ROUNDS.quick} CLI rounds instead of ${CLI_ROUNDS.full}, everything else as in the full run; the bars are judged by a full \`pnpm bench\`.`);
}
process.exit(!settings.quick && rows.some((r) => r.pass === false) ? 1 : 0);
