import { Agent, request } from "undici";
import { IccidClient } from "../../packages/sdk/dist/index.js";
import { abRounds } from "../lib/load.mjs";
import { startServer } from "../lib/processes.mjs";
import { row } from "../lib/table.mjs";

const ICCID = "89441000000000000018";
const CONCURRENCY = 8;

/** Calls per second for `n` calls of `call` with CONCURRENCY in flight (this process is the client). */
async function rate(call, n) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < n) await call();
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

/**
 * SDK lookup vs a raw undici.request doing the same call: same server (its own process), same keep-alive
 * agent settings, same concurrency, alternating rounds. The client is the bottleneck here, so the ratio is
 * what the SDK's own work (offline key check, timeouts, response schema check, error mapping) costs.
 */
export async function sdkRows({ settings }) {
  const server = await startServer("iccid");
  const sdk = new IccidClient({ apiKey: server.key, baseUrl: server.url });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const url = `${server.url}/api/v1/iccid/lookup`;
  const raw = async () => {
    const res = await request(url, {
      method: "POST",
      dispatcher: agent,
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ iccid: ICCID }),
    });
    const result = await res.body.json();
    if (res.statusCode !== 200 || result.iccid !== ICCID) throw new Error(`raw lookup failed: ${res.statusCode}`);
  };
  const viaSdk = async () => {
    if ((await sdk.iccid.lookup(ICCID)).iccid !== ICCID) throw new Error("sdk lookup failed");
  };
  try {
    await rate(raw, 500);
    await rate(viaSdk, 500);
    const calls = settings.quick ? 2_000 : 5_000;
    const { a, b } = await abRounds(settings.quick ? 5 : 7, () => rate(viaSdk, calls), () => rate(raw, calls));
    return [row("SDK lookup (req/s)", a, b, "req/s vs raw undici.request", "≥ 0.9")];
  } finally {
    await sdk.close();
    await agent.close();
    await server.stop();
  }
}
