import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuDuring } from "../lib/cpu.mjs";
import { freshIccids } from "../lib/iccids.mjs";
import { startOnSqlite } from "../lib/iccid-server.mjs";
import { rounds } from "../lib/load.mjs";
import { runCommand } from "../lib/processes.mjs";
import { buildRow } from "../lib/table.mjs";

const PROBE = fileURLToPath(new URL("../lib/probe.mjs", import.meta.url));

/** A CSV of `rows` rows (an id and an ICCID) of ICCIDs no run before sent. */
async function writeCsv(path, rows) {
  const out = createWriteStream(path);
  out.write("id,iccid\n");
  for (let done = 0; done < rows; ) {
    const chunk = freshIccids(Math.min(10_000, rows - done));
    if (!out.write(chunk.map((iccid, i) => `${done + i},${iccid}\n`).join(""))) await once(out, "drain");
    done += chunk.length;
  }
  out.end();
  await once(out, "finish");
}

/**
 * Runs the build's `iccid batch` with its defaults over a CSV of `rows` rows against `server`; resolves
 * with the CLI's CPU time per row (µs, from its own getrusage at exit, probe.mjs), the server's per row
 * meanwhile, rows/s and the CLI's peak RSS (MB). Each run reads ICCIDs no run before it sent: the CLI asks
 * for each chunk under an Idempotency-Key made from the chunk, and a chunk asked for again is a replay.
 */
async function runBatch(server, dir, rows) {
  const input = join(dir, "in.csv");
  const output = join(dir, "out.csv");
  const probeFile = join(dir, "probe.json");
  await writeCsv(input, rows);
  let run;
  const [serverMicros] = await cpuDuring([server.pid], async () => {
    run = await runCommand(process.execPath, [server.build.cli, "batch", input, "--out", output, "--quiet"], {
      env: {
        ...process.env,
        ICCID_API_KEY: server.owner.key,
        ICCID_BASE_URL: server.url,
        ICCID_CONFIG_DIR: dir,
        NODE_OPTIONS: `--import ${PROBE}`,
        BENCH_PROBE_FILE: probeFile,
      },
    });
  });
  if (run.code !== 0) throw new Error(`${server.build.name}: iccid batch failed (${run.code}): ${run.stderr.slice(-500)}`);
  const lines = readFileSync(output, "utf8").split("\n").filter(Boolean).length;
  if (lines !== rows + 1) throw new Error(`${server.build.name}: iccid batch wrote ${lines - 1} rows for ${rows}`);
  const probe = JSON.parse(readFileSync(probeFile, "utf8"));
  rmSync(output);
  rmSync(input);
  return { cli: probe.cpu / rows, server: serverMicros / rows, rate: rows / (run.ms / 1000), rss: probe.rss / 1024 / 1024 };
}

/**
 * `iccid batch` of every build on a CSV of settings.cliRows rows, against its own build's server on
 * SQLite, the builds taking turns: the CLI's CPU per row, the server's, and the CLI's peak RSS, judged.
 */
export async function cliRows({ settings, builds }) {
  const dir = mkdtempSync(join(tmpdir(), "iccid-bench-cli-"));
  const running = [];
  try {
    const contenders = {};
    for (const build of builds) {
      const { server } = await startOnSqlite(build, dir, running);
      contenders[build.name] = () => runBatch(server, dir, settings.cliRows);
    }
    const all = await rounds(settings.cliRounds, contenders, 0);
    const n = settings.cliRows.toLocaleString("en");
    return [
      buildRow(all, builds, `iccid batch, ${n} rows, CLI CPU`, "µs/row", (r, b) => r[b].cli),
      buildRow(all, builds, `iccid batch, ${n} rows, server CPU`, "µs/row", (r, b) => r[b].server),
      buildRow(all, builds, `iccid batch, ${n} rows, CLI peak RSS`, "MB", (r, b) => r[b].rss),
      { ...buildRow(all, builds, `iccid batch, ${n} rows (information)`, "rows/s", (r, b) => r[b].rate, { judged: false }), ratio: null },
    ];
  } finally {
    await Promise.all(running.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
