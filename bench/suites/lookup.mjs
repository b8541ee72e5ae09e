import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startClient, startFloor } from "../lib/children.mjs";
import { ICCID } from "../lib/iccids.mjs";
import { startOnSqlite } from "../lib/iccid-server.mjs";
import { costsDuring, rounds } from "../lib/load.mjs";
import { buildRow, timesRow } from "../lib/table.mjs";

const PATH = "/api/v1/iccid/lookup";
const BODY = JSON.stringify({ iccid: ICCID });
/** Lookups in flight, for every client of this suite. */
const IN_FLIGHT = 8;

/**
 * The single lookup on SQLite, for every build: the SDK's default `client.iccid.lookup` (an
 * Idempotency-Key on every call), the server's CPU and the client's per lookup, judged. Reported: the same
 * lookup without a key sent by a raw undici.request, the SDK's own transport, so that the key is all that
 * differs (the server's cost per request follows how its clients pace their requests, which the bench's
 * load generator does differently); and floors: the lookup without a key from the load generator against
 * a bare Koa echo and a raw node:http echo (server side), the raw undici.request (client side).
 */
export async function lookupRows({ settings, builds }) {
  const dir = mkdtempSync(join(tmpdir(), "iccid-bench-lookup-"));
  const running = [];
  try {
    const at = {};
    for (const build of builds) {
      const { server } = await startOnSqlite(build, dir, running);
      const { key } = server.owner;
      const [sdk, undici] = await Promise.all([startClient("sdk-lookup", server, key), startClient("undici", server, key)]);
      running.push(sdk, undici);
      at[build.name] = { server, sdk, undici, keyless: server.load.request(PATH, BODY, { authorization: `Bearer ${key}`, accept: "application/json" }) };
    }
    const [koa, http] = await Promise.all([startFloor("koa-echo"), startFloor("http-echo")]);
    running.push(koa, http);
    const echo = (floor) => floor.load.request(PATH, BODY, { accept: "application/json" });
    const [koaEcho, httpEcho] = [echo(koa), echo(http)];

    const n = settings.lookups;
    const contenders = {};
    for (const { name } of builds) {
      const { server, sdk } = at[name];
      contenders[`${name}:sdk`] = async () => {
        const { costs, rate } = await costsDuring([server.pid, sdk.pid], n, () => sdk.ask({ calls: n, inFlight: IN_FLIGHT }));
        return { server: costs[0], client: costs[1], rate };
      };
    }
    for (const { name } of builds) {
      const { server, undici } = at[name];
      contenders[`${name}:undici`] = async () => {
        const { costs } = await costsDuring([server.pid, undici.pid], n, () => undici.ask({ calls: n, inFlight: IN_FLIGHT }));
        return { server: costs[0], client: costs[1] };
      };
    }
    for (const { name } of builds) {
      const { server, keyless } = at[name];
      contenders[`${name}:keyless`] = async () => (await costsDuring([server.pid], n, () => server.load.repeat(keyless, n, IN_FLIGHT))).costs[0];
    }
    contenders.koa = async () => (await costsDuring([koa.pid], n, () => koa.load.repeat(koaEcho, n, IN_FLIGHT))).costs[0];
    contenders.http = async () => (await costsDuring([http.pid], n, () => http.load.repeat(httpEcho, n, IN_FLIGHT))).costs[0];

    // Every build and floor compiles its code before anything counts: one long warm-up, then rounds.
    const warm = settings.warmUpCalls;
    await Promise.all(Object.values(at).flatMap(({ server, sdk, undici, keyless }) => [
      sdk.ask({ calls: warm, inFlight: IN_FLIGHT }),
      undici.ask({ calls: warm, inFlight: IN_FLIGHT }),
      server.load.repeat(keyless, warm, IN_FLIGHT),
    ]));
    await Promise.all([koa.load.repeat(koaEcho, warm, IN_FLIGHT), http.load.repeat(httpEcho, warm, IN_FLIGHT)]);
    const all = await rounds(settings.rounds, contenders, settings.warmUpRounds);

    const sdk = (r, b) => r[`${b}:sdk`];
    const undici = (r, b) => r[`${b}:undici`];
    const keyless = (r, b) => r[`${b}:keyless`];
    return [
      buildRow(all, builds, "SDK lookup (default, Idempotency-Key), server CPU", "µs/lookup", (r, b) => sdk(r, b).server),
      buildRow(all, builds, "SDK lookup, client CPU", "µs/call", (r, b) => sdk(r, b).client),
      buildRow(all, builds, "lookup without a key (undici.request), server CPU", "µs/lookup", (r, b) => undici(r, b).server, { judged: false }),
      timesRow(all, builds, "SDK lookup ÷ lookup without a key (undici.request), server CPU (issue 58: ≤ 1.15)", (r, b) => sdk(r, b).server / undici(r, b).server),
      buildRow(all, builds, "lookup without a key (load generator), server CPU", "µs/lookup", keyless, { judged: false }),
      timesRow(all, builds, "floor: lookup without a key ÷ bare Koa echo, server CPU", (r, b) => keyless(r, b) / r.koa),
      timesRow(all, builds, "floor: lookup without a key ÷ raw node:http echo, server CPU", (r, b) => keyless(r, b) / r.http),
      timesRow(all, builds, "floor: SDK lookup ÷ raw undici.request, client CPU", (r, b) => sdk(r, b).client / undici(r, b).client),
      { ...buildRow(all, builds, "SDK lookup (information)", "calls/s", (r, b) => sdk(r, b).rate, { judged: false }), ratio: null },
    ];
  } finally {
    await Promise.all(running.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
