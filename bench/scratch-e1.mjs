// Scratch (not committed): one kind of work against the iccid server, profiled.
import { thousandIccids } from "./lib/iccids.mjs";
import { serverCost } from "./lib/load.mjs";
import { startServer } from "./lib/processes.mjs";
const kind = process.argv[2];
const LOOKUP = { path: "/api/v1/iccid/lookup", body: JSON.stringify({ iccid: "89441000000000000018" }), connections: 10 };
const BATCH = { path: "/api/v1/iccid/batch", body: JSON.stringify({ iccids: thousandIccids() }), connections: 4 };
const s = await startServer("iccid");
const costs = [];
for (let r = 0; r < 40; r++) costs.push((kind === "batch" ? await serverCost(s, { ...BATCH, amount: 10 }, 1000) : await serverCost(s, { ...LOOKUP, amount: 1000 })).cost);
console.log(kind, costs.slice(10).sort((a, b) => a - b)[15].toFixed(2));
await s.stop();
