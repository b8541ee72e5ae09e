// A client in a child process of its own, so that its CPU time is its own. argv[2]:
// - "sdk-lookup": the build's SDK (BENCH_SDK), `client.iccid.lookup` as a user calls it (its own
//   Idempotency-Key on every call); on {calls, inFlight} it makes `calls` lookups, `inFlight` at a time;
// - "sdk-batch-all": the same SDK's `client.iccid.batchAll` with its defaults; on {iccids: n} it looks up
//   the n ICCIDs numbered from 0 (iccids.mjs) in one batchAll;
// - "undici": a raw `undici.request` doing the lookup without a key, on {calls, inFlight} as above.
// BENCH_URL and BENCH_KEY say where and as whom. It answers {done} or {error}; the SDK does not retry, so
// any answer but a 200 is an error.
import { pathToFileURL } from "node:url";
import { Agent, request } from "undici";
import { iccidRange, ICCID } from "./iccids.mjs";

const { BENCH_URL: url, BENCH_KEY: key, BENCH_SDK: sdkPath } = process.env;
const kind = process.argv[2];

async function sdkClient() {
  const { IccidClient } = await import(pathToFileURL(sdkPath).href);
  return new IccidClient({ apiKey: key, baseUrl: url, maxRetries: 0 });
}

async function inParallel(calls, inFlight, call) {
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next++ < calls) await call();
  }));
}

let handle;
if (kind === "sdk-lookup") {
  const sdk = await sdkClient();
  handle = ({ calls, inFlight }) =>
    inParallel(calls, inFlight, async () => {
      if ((await sdk.iccid.lookup(ICCID)).iccid !== ICCID) throw new Error("the SDK's lookup answered another ICCID");
    });
} else if (kind === "sdk-batch-all") {
  const sdk = await sdkClient();
  const sources = new Map();
  handle = async ({ iccids }) => {
    if (!sources.has(iccids)) sources.set(iccids, iccidRange(0, iccids));
    let ok = 0;
    for await (const item of sdk.iccid.batchAll(sources.get(iccids))) if (item.ok) ok++;
    if (ok !== iccids) throw new Error(`batchAll answered ${ok} of ${iccids} ICCIDs`);
  };
} else if (kind === "undici") {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const endpoint = `${url}/api/v1/iccid/lookup`;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" };
  handle = ({ calls, inFlight }) =>
    inParallel(calls, inFlight, async () => {
      const res = await request(endpoint, { method: "POST", dispatcher: agent, headers, body: JSON.stringify({ iccid: ICCID }) });
      const result = await res.body.json();
      if (res.statusCode !== 200 || result.iccid !== ICCID) throw new Error(`undici lookup answered ${res.statusCode}`);
    });
} else {
  throw new Error(`unknown client ${kind}`);
}

process.on("message", async (message) => {
  try {
    await handle(message);
    process.send({ done: true });
  } catch (error) {
    process.send({ error: error.message });
  }
});
process.once("SIGTERM", () => process.exit(0));
console.log(JSON.stringify({ ready: true }));
