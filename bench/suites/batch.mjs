import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startClient, startFloor } from "../lib/children.mjs";
import { freshIccids } from "../lib/iccids.mjs";
import { startOnSqlite } from "../lib/iccid-server.mjs";
import { costsDuring, rounds } from "../lib/load.mjs";
import { chunkKey, pageHeaders, signIn } from "../lib/session.mjs";
import { buildRow, timesRow } from "../lib/table.mjs";

const CHUNK = 1000;
const DECODE_BATCHES = 10;

/**
 * The page's upload of `chunks` chunks of 1000 ICCIDs no run sent before, prepared as the page sends them:
 * the batch route with the session's cookie and an Idempotency-Key made from each chunk, one chunk at a time.
 */
function pageUpload(server, cookie, chunks) {
  const headers = pageHeaders(server, cookie);
  return Array.from({ length: chunks }, (_, i) => {
    const iccids = freshIccids(CHUNK);
    return server.load.request("/api/v1/iccid/batch", JSON.stringify({ iccids }), { ...headers, "idempotency-key": chunkKey(i * CHUNK, iccids) });
  });
}

/**
 * Batches on SQLite, for every build, per ICCID: the SDK's `batchAll` with its defaults (server and client
 * CPU) and the account page's upload (the batch route with a session, server CPU), judged; the in-process
 * floor (decode and JSON.stringify of 1000 ICCIDs, no HTTP), reported.
 */
export async function batchRows({ settings, builds }) {
  const dir = mkdtempSync(join(tmpdir(), "iccid-bench-batch-"));
  const running = [];
  try {
    const at = {};
    for (const build of builds) {
      const { server } = await startOnSqlite(build, dir, running);
      const client = await startClient("sdk-batch-all", server, server.owner.key);
      running.push(client);
      at[build.name] = { server, client, cookie: await signIn(server, server.owner) };
    }
    const decode = await startFloor("decode", { BENCH_SERVER_INDEX: join(builds[0].root, "packages/server/dist/index.js") });
    running.push(decode);

    const iccids = settings.batchIccids;
    const chunks = settings.pageChunks;
    const contenders = {};
    for (const { name } of builds) {
      const { server, client } = at[name];
      contenders[`${name}:batchAll`] = async () => {
        const { costs } = await costsDuring([server.pid, client.pid], iccids, () => client.ask({ iccids }));
        return { server: costs[0], client: costs[1] };
      };
    }
    for (const { name } of builds) {
      const { server, cookie } = at[name];
      contenders[`${name}:page`] = async () => {
        const upload = pageUpload(server, cookie, chunks);
        return (await costsDuring([server.pid], chunks * CHUNK, () => server.load.send(upload, 1))).costs[0];
      };
    }
    contenders.decode = async () => (await costsDuring([decode.pid], DECODE_BATCHES * CHUNK, () => decode.ask({ batches: DECODE_BATCHES }))).costs[0];
    for (let i = 0; i < 3; i++) await Promise.all(Object.values(contenders).map((contender) => contender()));
    const all = await rounds(settings.rounds, contenders, settings.warmUpRounds);

    const batchAll = (r, b) => r[`${b}:batchAll`];
    return [
      buildRow(all, builds, `SDK batchAll of ${iccids.toLocaleString("en")}, server CPU`, "µs/ICCID", (r, b) => batchAll(r, b).server),
      buildRow(all, builds, "SDK batchAll, client CPU", "µs/ICCID", (r, b) => batchAll(r, b).client),
      buildRow(all, builds, "account page upload (session, batch route), server CPU", "µs/ICCID", (r, b) => r[`${b}:page`]),
      timesRow(all, builds, "floor: SDK batchAll ÷ in-process decode + JSON.stringify, server CPU", (r, b) => batchAll(r, b).server / r.decode),
    ];
  } finally {
    await Promise.all(running.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
