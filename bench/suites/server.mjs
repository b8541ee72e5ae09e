import { cpuDuring } from "../lib/cpu.mjs";
import { thousandIccids } from "../lib/iccids.mjs";
import { medianOver, rounds, serverCost } from "../lib/load.mjs";
import { startServer } from "../lib/processes.mjs";
import { costRow, row } from "../lib/table.mjs";

const LOOKUP = { path: "/api/v1/iccid/lookup", body: JSON.stringify({ iccid: "89441000000000000018" }), connections: 10 };
const BATCH = { path: "/api/v1/iccid/batch", body: JSON.stringify({ iccids: thousandIccids() }), connections: 4 };

/** The in-process baseline child's CPU time per ICCID over `batches` batches. */
async function inProcessCost(child, batches) {
  const started = performance.now();
  const [micros] = await cpuDuring([child.pid], () => child.send({ batches }));
  return { cost: micros / (batches * 1000), rate: (batches * 1000) / ((performance.now() - started) / 1000) };
}

/**
 * The server's own CPU time per unit of work against baselines measured the same way in the same rounds:
 * single lookups through the whole pipeline vs a bare Koa echo (µs per request), a batch of 1000 vs the
 * plain in-process decode + JSON.stringify of the same 1000 ICCIDs (µs per ICCID), and, reported without a
 * bar, what HTTP alone adds to that in-process work (a bare Koa + @koa/router endpoint doing it and nothing
 * else) and a single lookup over one ICCID's share of a batch. Each ratio is the median of the rounds' own
 * ratios (figures measured seconds apart), not the ratio of the medians. Requests per second are information
 * only: the load generator shares the cores.
 */
export async function serverRows({ settings }) {
  const [iccid, echo, bareBatch, inProcess] = await Promise.all(["iccid", "echo", "bare-batch", "decode"].map((kind) => startServer(kind)));
  try {
    const all = await rounds(settings.rounds, {
      single: () => serverCost(iccid, { ...LOOKUP, amount: settings.lookups }),
      echo: () => serverCost(echo, { ...LOOKUP, amount: settings.lookups }),
      batch: () => serverCost(iccid, { ...BATCH, amount: settings.batches }, 1000),
      inProcess: () => inProcessCost(inProcess, settings.batches),
      bareBatch: () => serverCost(bareBatch, { ...BATCH, amount: settings.batches }, 1000),
    }, settings.warmUpRounds);
    const cost = (name) => medianOver(all, (r) => r[name].cost);
    const rate = (name) => medianOver(all, (r) => r[name].rate);
    const ratio = (a, b) => medianOver(all, (r) => r[a].cost / r[b].cost);
    return [
      costRow("single lookup, full pipeline (CPU)", cost("single"), cost("echo"), "µs/request vs Koa echo", "≥ 0.8", ratio("echo", "single")),
      costRow("batch of 1000, per ICCID (CPU)", cost("batch"), cost("inProcess"), "µs/ICCID vs in-process decode+stringify", "≥ 0.67", ratio("inProcess", "batch")),
      row("batch of 1000 on a bare Koa endpoint (CPU)", cost("bareBatch"), cost("inProcess"), "µs/ICCID vs in-process decode+stringify", null, ratio("inProcess", "bareBatch")),
      row("single lookup over one ICCID in a batch (CPU)", cost("single"), cost("batch"), "µs/request vs µs/ICCID", null, ratio("single", "batch")),
      row("single lookup (throughput)", rate("single"), rate("echo"), "req/s vs Koa echo", null),
      row("batch of 1000 (throughput)", rate("batch"), rate("inProcess"), "ICCIDs/s vs in-process", null),
    ];
  } finally {
    await Promise.all([iccid, echo, bareBatch, inProcess].map((child) => child.stop()));
  }
}
