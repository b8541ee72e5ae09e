#!/usr/bin/env node
// SDK lookup vs a raw undici.request doing the same call (DESIGN.md bar: ≥ 0.9×). Both run against one
// real server, same keep-alive Agent settings, same concurrency, in alternating rounds so that warm-up and
// machine noise fall on both sides. Needs `pnpm build` first. Prints one JSON line.
//   node packages/sdk/bench/sdk-vs-undici.mjs [--requests 3000] [--concurrency 8] [--rounds 5]
import { parseArgs } from "node:util";
import { startTestServer } from "@iccid/server/testing";
import { Agent, request } from "undici";
import { IccidClient } from "../dist/index.js";

const { values } = parseArgs({
  options: { requests: { type: "string", default: "3000" }, concurrency: { type: "string", default: "8" }, rounds: { type: "string", default: "5" } },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
const ICCID = "89441000000000000018";

const server = await startTestServer({ plan: { rate_limit: 1e9, window_seconds: 60, monthly_lookups: 1e9 } });
const key = server.owner.apiKey;
const sdk = new IccidClient({ apiKey: key, baseUrl: server.url });
const rawAgent = new Agent({ keepAliveTimeout: 10_000 });
const url = `${server.url}/api/v1/iccid/lookup`;

async function raw() {
  const res = await request(url, {
    method: "POST",
    dispatcher: rawAgent,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ iccid: ICCID }),
  });
  const result = await res.body.json();
  if (res.statusCode !== 200 || result.iccid !== ICCID) throw new Error(`raw lookup failed: ${res.statusCode}`);
}

async function viaSdk() {
  const result = await sdk.iccid.lookup(ICCID);
  if (result.iccid !== ICCID) throw new Error("sdk lookup failed");
}

/** Requests per second for `n` calls of `fn` with `concurrency` in flight. */
async function rate(fn, n) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) await fn();
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

try {
  await rate(raw, 500);
  await rate(viaSdk, 500);
  const rawRates = [];
  const sdkRates = [];
  for (let r = 0; r < rounds; r++) {
    rawRates.push(await rate(raw, requests));
    sdkRates.push(await rate(viaSdk, requests));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rawRps = median(rawRates);
  const sdkRps = median(sdkRates);
  console.log(
    JSON.stringify({
      name: "sdk lookup vs raw undici.request",
      sdk_rps: Math.round(sdkRps),
      raw_rps: Math.round(rawRps),
      ratio: Number((sdkRps / rawRps).toFixed(3)),
      bar: 0.9,
      requests,
      concurrency,
      rounds,
    }),
  );
} finally {
  await sdk.close();
  await rawAgent.close();
  await server.close();
}
