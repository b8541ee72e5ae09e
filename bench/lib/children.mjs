// The bench's own children: floors run where the servers run (the servers' core), clients where the load
// runs (the bench's own cores, inherited).
import { fileURLToPath } from "node:url";
import { onServerCore } from "./cores.mjs";
import { httpLoad } from "./http-load.mjs";
import { PROFILE, startChild } from "./processes.mjs";

const FLOOR = fileURLToPath(new URL("./floor.mjs", import.meta.url));
const CLIENT = fileURLToPath(new URL("./client.mjs", import.meta.url));

/** A floor (floor.mjs) of `kind`; one that serves HTTP comes with its load generator, `load`. */
export async function startFloor(kind, env = {}) {
  const floor = await startChild(onServerCore([process.execPath, ...PROFILE, FLOOR, kind]), env);
  if (!floor.ready.url) return floor;
  const load = httpLoad(floor.ready.url);
  return {
    ...floor,
    url: floor.ready.url,
    load,
    async stop() {
      load.close();
      await floor.stop();
    },
  };
}

/** A client (client.mjs) of `kind` calling `server` as the API key `key`, with the SDK of `server`'s build. */
export function startClient(kind, server, key) {
  return startChild([process.execPath, ...PROFILE, CLIENT, kind], { BENCH_URL: server.url, BENCH_KEY: key, BENCH_SDK: server.build.sdk });
}
