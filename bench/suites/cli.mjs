import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuDuring } from "../lib/cpu.mjs";
import { thousandIccids } from "../lib/iccids.mjs";
import { medianOver, rounds } from "../lib/load.mjs";
import { runCommand, startServer } from "../lib/processes.mjs";
import { costRow, row } from "../lib/table.mjs";

const CLI = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));
const PROBE = fileURLToPath(new URL("../lib/probe.mjs", import.meta.url));

/** Seeds of thousandIccids per run: more than the largest file's 3,000, so no two runs share an ICCID. */
const SEEDS_PER_RUN = 4_000;
let runs = 0;

async function writeCsv(path, rows, firstSeed) {
  const out = createWriteStream(path);
  out.write("id,iccid\n");
  for (let done = 0, seed = firstSeed; done < rows; seed++) {
    const chunk = thousandIccids(seed).slice(0, rows - done);
    if (!out.write(chunk.map((iccid, i) => `${done + i},${iccid}`).join("\n") + "\n")) await once(out, "drain");
    done += chunk.length;
  }
  out.end();
  await once(out, "finish");
}

/**
 * Runs `iccid batch` over a CSV of `rows` rows; returns the CLI's CPU time per row (µs, from its own
 * getrusage at exit), the server's CPU time per row meanwhile, rows/s and the CLI's peak RSS in bytes.
 * Each run reads ICCIDs no run before it sent: `iccid batch` asks for each chunk under an Idempotency-Key
 * made from the chunk, and the server answers a chunk asked for again from what it kept, at next to no cost.
 */
async function runBatch(server, dir, rows) {
  const input = join(dir, `in-${rows}.csv`);
  await writeCsv(input, rows, runs++ * SEEDS_PER_RUN);
  const output = join(dir, `out-${rows}.csv`);
  const probeFile = join(dir, `probe-${rows}`);
  let run;
  const [serverMicros] = await cpuDuring([server.pid], async () => {
    run = await runCommand(process.execPath, [CLI, "batch", input, "--out", output, "--concurrency", "4"], {
      env: {
        ...process.env,
        ICCID_API_KEY: server.key,
        ICCID_BASE_URL: server.url,
        ICCID_CONFIG_DIR: dir,
        NODE_OPTIONS: `--import ${PROBE}`,
        BENCH_PROBE_FILE: probeFile,
      },
    });
  });
  if (run.code !== 0) throw new Error(`iccid batch failed (${run.code}): ${run.stderr.slice(-500)}`);
  const lines = readFileSync(output, "utf8").split("\n").filter(Boolean).length;
  if (lines !== rows + 1) throw new Error(`iccid batch wrote ${lines - 1} rows for ${rows}`);
  const probe = JSON.parse(readFileSync(probeFile, "utf8"));
  rmSync(output);
  rmSync(input);
  return { cost: probe.cpu / rows, serverCost: serverMicros / rows, rate: rows / (run.ms / 1000), rss: probe.rss };
}

/**
 * `iccid batch` on generated CSVs of 600,000 and 3,000,000 rows, in alternating rounds: the CLI's CPU per
 * row against the server's per ICCID in the same run (the CLI should not cost more than twice what it asks
 * of the server), and flat peak RSS. The small file is the smallest whose run reaches the CLI's steady
 * memory (its RSS climbs while the allocator comes to hold the answers' freed buffers for reuse, and levels
 * off some 600,000 rows in; see bench/README.md), so the two peaks compare like with like.
 */
export async function cliRows({ settings }) {
  const [small, large] = [600_000, 3_000_000];
  const dir = mkdtempSync(join(tmpdir(), "iccid-bench-cli-"));
  const server = await startServer("iccid");
  try {
    const all = await rounds(settings.cliRounds, { small: () => runBatch(server, dir, small), large: () => runBatch(server, dir, large) }, 0);
    const m = (figure) => medianOver(all, figure);
    const mb = (bytes) => bytes / 1024 / 1024;
    const n = large.toLocaleString("en");
    return [
      costRow(`iccid batch, ${n} rows (CPU)`, m((r) => r.large.cost), m((r) => r.large.serverCost), "µs/row vs server's µs/ICCID", "≥ 0.5", m((r) => r.large.serverCost / r.large.cost)),
      row(`iccid batch, ${n} rows (throughput)`, m((r) => r.large.rate), m((r) => r.small.rate), "rows/s vs smaller file", null),
      row(`iccid batch peak RSS, ${n} vs ${small.toLocaleString("en")} rows (MB)`, mb(m((r) => r.large.rss)), mb(m((r) => r.small.rss)), "MB vs smaller file", "≤ 1.2", m((r) => r.large.rss / r.small.rss)),
      row(`iccid batch peak RSS, ${n} rows (MB)`, mb(m((r) => r.large.rss)), 200, "MB vs 200 MB ceiling", "≤ 1"),
    ];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
