#!/usr/bin/env node
// pnpm bench [--base REF] [--quick] [--only SUITES]: the paths users take, measured for the head (this
// checkout, built) and, with --base, for REF built in a temporary worktree, side by side in alternating
// rounds; a row's ratio is base cost ÷ head cost. Prints one table, writes bench/results.json; a full run
// with --base exits 1 when a user path costs more than its base by more than the noise. See bench/README.md.
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { baseBuild, headBuild } from "./lib/builds.mjs";
import { placementNote, PLACEMENT } from "./lib/cores.mjs";
import { interruption } from "./lib/interrupt.mjs";
import { judge, printTable } from "./lib/table.mjs";
import { batchRows } from "./suites/batch.mjs";
import { cliRows } from "./suites/cli.mjs";
import { lookupRows } from "./suites/lookup.mjs";
import { scaleOutRows } from "./suites/scale-out.mjs";
import { usageRows } from "./suites/usage.mjs";

/**
 * How far below 1 a user path's ratio may fall before a full run fails: what an A/A run (`--base HEAD`)
 * shows between two builds of the same commit (bench/README.md gives the figure measured).
 */
const NOISE = 0.1;

// Round counts are odd, so that a median is one round's figure.
const WORK = {
  full: {
    rounds: 15, warmUpRounds: 2, warmUpCalls: 10_000, lookups: 1_500, batchIccids: 10_000, pageChunks: 10, cliRows: 1_000_000, cliRounds: 3,
    scaleOutRounds: 7, scaleOutLookups: 1_000, scaleOutWarmUp: 3_000, usageRounds: 11, usageLookups: 2_000,
  },
  quick: {
    rounds: 3, warmUpRounds: 1, warmUpCalls: 1_000, lookups: 500, batchIccids: 5_000, pageChunks: 5, cliRows: 200_000, cliRounds: 1,
    scaleOutRounds: 3, scaleOutLookups: 400, scaleOutWarmUp: 400, usageRounds: 3, usageLookups: 1_000,
  },
};
const SUITES = { lookup: lookupRows, batch: batchRows, cli: cliRows, "scale-out": scaleOutRows, usage: usageRows };

const { values } = parseArgs({ options: { base: { type: "string" }, quick: { type: "boolean", default: false }, only: { type: "string" } } });
const only = values.only?.split(",") ?? Object.keys(SUITES);
const unknown = only.filter((name) => !SUITES[name]);
if (unknown.length) throw new Error(`--only: no suite ${unknown.join(", ")} (suites: ${Object.keys(SUITES).join(", ")})`);
const settings = { quick: values.quick, ...WORK[values.quick ? "quick" : "full"] };

/** Every suite asked for, for every build; the base's worktree goes whatever happens. */
async function measure(builds) {
  const rows = [];
  for (const name of only) {
    const suiteStarted = performance.now();
    process.stderr.write(`bench: ${name}…`);
    rows.push(...(await SUITES[name]({ settings, builds })));
    process.stderr.write(` ${Math.round((performance.now() - suiteStarted) / 1000)} s\n`);
  }
  return judge(rows, NOISE);
}

const started = performance.now();
const head = headBuild();
let base;
let rows;
try {
  base = values.base === undefined ? undefined : await baseBuild(values.base);
  rows = await measure(base ? [head, base] : [head]);
} catch (error) {
  await interruption();
  throw error;
} finally {
  await base?.remove();
}

const machine = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown";
const minutes = (performance.now() - started) / 60_000;
console.log(`head ${head.sha}${base ? `, base ${values.base} (${base.sha})` : ""}; ${new Date().toISOString()}; ${machine}; ${minutes.toFixed(1)} min${settings.quick ? "; quick" : ""}\n`);
printTable(rows);
console.log(`\n${placementNote()}`);
if (base) console.log(`a judged row passes at base÷head ≥ ${1 - NOISE} (NOISE in run.mjs, bench/README.md)${settings.quick ? "; a quick run is not judged" : ""}`);
const results = { date: new Date().toISOString(), machine, node: process.version, quick: settings.quick, head: head.sha, base: base && { ref: values.base, sha: base.sha }, noise: NOISE, placement: PLACEMENT, minutes, rows };
writeFileSync(new URL("./results.json", import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
process.exit(base && !settings.quick && rows.some((r) => r.pass === false) ? 1 : 0);
