import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  killServerProcesses,
  ownerCredentials,
  serverCommand,
  startServerProcess,
  stopServerProcess,
  TcpRelay,
  type TestDatabase,
} from "@iccid/server/testing";
import { describeTally, LookupLoad, waitForStatus } from "../lookup-load.js";
import { send } from "../support.js";

// PostgreSQL faults against the built server, through a TCP relay the test controls: connections cut
// under load, and a restart (every backend terminated, new connections refused for a while). The shared
// PostgreSQL itself is never stopped: each test has its own database and terminates only its backends.

const PG = new URL(process.env.ICCID_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test");

const databases: TestDatabase[] = [];
async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase(PG.href);
  databases.push(database);
  return database;
}

/** The database's URL, through the relay or straight to PostgreSQL. */
function databaseUrl(database: TestDatabase, port = PG.port): string {
  const url = new URL(PG.href);
  url.port = port;
  url.pathname = `/${database.name}`;
  return url.href;
}

let relay: TcpRelay;
beforeAll(async () => {
  relay = await TcpRelay.start(PG.hostname, Number(PG.port || 5432));
});
afterAll(async () => {
  killServerProcesses();
  await relay?.close();
  for (const database of databases) await database.drop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("PostgreSQL faults", () => {
  it("connections cut under load and a restart: 503 at most, no crash, recovery by itself, exact metering", async () => {
    const database = await freshDatabase();
    const server = await startServerProcess(databaseUrl(database, String(relay.port)));
    const { key } = await ownerCredentials(server);
    // Store faults, not limits: the default plan's 600 requests a minute would turn the load into 429s
    // within a minute (every refused request counts too) and hide whether the server recovered.
    serverCommand(databaseUrl(database), ["plan", "set", "standard", "--rate-limit", "1000000"]);
    const load = new LookupLoad(() => server.url, key, 8, 20_000_000);
    await load.okAfter(0, 50);

    // Fault 1: three cuts of every connection, 400 ms apart, under load.
    const cutAt = performance.now();
    let connectionsCut = 0;
    for (let i = 0; i < 3; i++) {
      connectionsCut += relay.cut();
      await pause(400);
    }
    const cutsOverAt = performance.now();
    await load.okAfter(cutsOverAt, 50);
    const cuts = load.tally(cutAt, cutsOverAt);

    // Fault 2: a restart. Every backend of this database is terminated and new connections are refused
    // for 2 s, as while PostgreSQL is down; then it is back.
    relay.refuse(true);
    const downAt = performance.now();
    const terminated = await database.terminateBackends();
    relay.cut();
    const readyDownMs = await waitForStatus(server.url, "/readyz", 503, 10_000);
    // Down for 2 s and until a lookup has been refused: on a busy machine 2 s can pass before any is answered.
    while (load.tally(downAt).status5xx === 0) {
      if (performance.now() - downAt > 30_000) throw new Error("no lookup was refused within 30 s of PostgreSQL going down");
      await pause(25);
    }
    await pause(Math.max(0, 2_000 - (performance.now() - downAt)));
    relay.refuse(false);
    const upAt = performance.now();
    const readyUpMs = await waitForStatus(server.url, "/readyz", 200);
    await load.okAfter(upAt, 50);
    await load.stop();
    const restart = load.tally(downAt, upAt);

    expect(server.child.exitCode).toBeNull(); // it used to die on an unhandled 'error' event
    expect(load.tally().internalErrors).toBe(0);
    expect(load.tally().failedExchanges).toBe(0);
    // Nothing lost, nothing double-counted. A commit whose fate PostgreSQL could not tell for 5 s was
    // answered 503 and is refunded once it can (charge-refunds.ts): as soon as a later commit succeeds.
    const metered = async () => (await send(server.url, "GET", "/api/v1/usage", { authorization: `Bearer ${key}` })).body;
    let usage = await metered();
    for (const until = performance.now() + 5_000; usage.totals.lookups !== load.answered && performance.now() < until; usage = await metered()) await pause(100);
    expect(usage.totals.lookups).toBe(load.answered);
    expect(usage.quota.used).toBe(load.answered);
    expect(await stopServerProcess(server)).toBe(0);
    console.log(
      `PostgreSQL cuts: 3 cuts dropping ${connectionsCut} connections, during them ${describeTally(cuts)}; recovered ${Math.round(load.firstOkAfter(cutsOverAt)!)} ms after the last. ` +
        `Restart: ${terminated} backends terminated, 2 s down, during it ${describeTally(restart)}; /readyz 503 after ${Math.round(readyDownMs)} ms, ` +
        `200 ${Math.round(readyUpMs)} ms after PostgreSQL was back; first lookup ${Math.round(load.firstOkAfter(upAt)!)} ms after. ` +
        `${load.answered} lookups answered, ${usage.totals.lookups} metered`,
    );
  });

  it("two instances first started together on an empty database both start, and only one creates the owner", async () => {
    const database = await freshDatabase();
    const both = await Promise.all([startServerProcess(databaseUrl(database)), startServerProcess(databaseUrl(database))]);
    const { key } = await Promise.any(both.map((s) => ownerCredentials(s)));
    // Counted in the database, not in the two processes' output (which may still be on its way).
    const accounts = JSON.parse(serverCommand(databaseUrl(database), ["account", "list", "--json"])) as unknown[];
    expect(accounts).toHaveLength(1);
    for (const s of both) {
      expect(s.child.exitCode).toBeNull();
      expect((await send(s.url, "GET", "/api/v1/usage", { authorization: `Bearer ${key}` })).status).toBe(200);
    }
    for (const s of both) expect(await stopServerProcess(s)).toBe(0);
  });
});
