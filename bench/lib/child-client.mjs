// A bench client in its own process, so that its CPU time is its own (no other client's garbage collected
// in it). argv[2]: "sdk" (client.iccid.lookup) or "raw" (undici.request doing the same call with the same
// keep-alive agent settings); BENCH_URL and BENCH_KEY say where and as whom. On the IPC message {calls: n}
// it makes n lookups, 8 in flight, and answers {done: n}.
import { Agent, request } from "undici";
import { IccidClient } from "../../packages/sdk/dist/index.js";

const ICCID = "89441000000000000018";
const CONCURRENCY = 8;
const { BENCH_URL: url, BENCH_KEY: key } = process.env;

let lookup;
if (process.argv[2] === "sdk") {
  const sdk = new IccidClient({ apiKey: key, baseUrl: url });
  lookup = async () => {
    if ((await sdk.iccid.lookup(ICCID)).iccid !== ICCID) throw new Error("sdk lookup failed");
  };
} else {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const endpoint = `${url}/api/v1/iccid/lookup`;
  lookup = async () => {
    const res = await request(endpoint, {
      method: "POST",
      dispatcher: agent,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ iccid: ICCID }),
    });
    const result = await res.body.json();
    if (res.statusCode !== 200 || result.iccid !== ICCID) throw new Error(`raw lookup failed: ${res.statusCode}`);
  };
}

process.on("message", async ({ calls }) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < calls) await lookup();
    }),
  );
  process.send({ done: calls });
});
process.once("SIGTERM", () => process.exit(0));
console.log(JSON.stringify({ url: "", key: "" }));
