import { cpuDuring } from "../lib/cpu.mjs";
import { medianOver, rounds } from "../lib/load.mjs";
import { startClient, startServer } from "../lib/processes.mjs";
import { costRow, row } from "../lib/table.mjs";

const WARM_UP_CALLS = 20_000;

/** A client child's CPU time per call (µs) and calls/s over `calls` lookups. */
async function clientCost(client, calls) {
  const started = performance.now();
  const [micros] = await cpuDuring([client.pid], () => client.send({ calls }));
  return { cost: micros / calls, rate: calls / ((performance.now() - started) / 1000) };
}

/**
 * SDK lookup vs a raw undici.request doing the same call, each client in its own process against the same
 * server, same keep-alive agent settings and concurrency. The figure is the client process's own CPU time
 * per call: what the SDK's own work (offline key check, timeouts, response schema check, error mapping)
 * adds to the HTTP client it is built on.
 */
export async function sdkRows({ settings }) {
  const server = await startServer("iccid");
  const [sdk, raw] = await Promise.all([startClient("sdk", server), startClient("raw", server)]);
  try {
    // The SDK brings more code to compile than the raw call: both get a long warm-up before the rounds
    // (in the first few thousand calls the SDK's figure still falls by half), then unrecorded rounds (the
    // first 20 rounds after it still gave a ratio about 8 % above the later ones).
    await Promise.all([sdk.send({ calls: WARM_UP_CALLS }), raw.send({ calls: WARM_UP_CALLS })]);
    const all = await rounds(settings.rounds, { sdk: () => clientCost(sdk, settings.sdkCalls), raw: () => clientCost(raw, settings.sdkCalls) }, settings.warmUpRounds);
    return [
      costRow(
        "SDK lookup, client side (CPU)",
        medianOver(all, (r) => r.sdk.cost),
        medianOver(all, (r) => r.raw.cost),
        "µs/call vs raw undici.request",
        "≥ 0.9",
        medianOver(all, (r) => r.raw.cost / r.sdk.cost),
      ),
      row("SDK lookup (throughput)", medianOver(all, (r) => r.sdk.rate), medianOver(all, (r) => r.raw.rate), "calls/s vs raw undici.request", null),
    ];
  } finally {
    await Promise.all([sdk.stop(), raw.stop(), server.stop()]);
  }
}
