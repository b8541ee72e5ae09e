import { randomBytes } from "node:crypto";
import { startClient } from "../lib/children.mjs";
import { prepareDatabase, startServer } from "../lib/iccid-server.mjs";
import { costsDuring, rounds } from "../lib/load.mjs";
import { createDatabase } from "../lib/postgres.mjs";
import { buildRow, timesRow } from "../lib/table.mjs";

const REDIS_URL = process.env.ICCID_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const INSTANCES = [1, 2, 4];
/** Lookups in flight in all: the same load, split evenly over the instances. */
const IN_FLIGHT = 8;

/**
 * PostgreSQL + Redis, for every build: the SDK's default lookup spread evenly over 1, 2 and 4 instances
 * of the build on one database of the run's own (the same total work), the instances' CPU summed and the
 * database's PostgreSQL backends' CPU, per lookup, judged; and on one instance the lookup without a key by
 * a raw undici.request (the SDK's transport, paced as the SDK is), reported beside the SDK's. Each build has its own database and its own Redis key prefix.
 * ICCID_TEST_POSTGRES_URL and ICCID_TEST_REDIS_URL say where the services are (default: their usual local ports).
 */
export async function scaleOutRows({ settings, builds }) {
  const prefix = `bench-${randomBytes(4).toString("hex")}`;
  const databases = [];
  const running = [];
  try {
    const at = {};
    for (const build of builds) {
      const database = await createDatabase();
      databases.push(database);
      await prepareDatabase(build, database.url);
      const options = ["--redis", REDIS_URL, "--redis-prefix", `${prefix}-${build.name}`];
      const instances = [];
      for (let i = 0; i < Math.max(...INSTANCES); i++) {
        instances.push(await startServer(build, database.url, options));
        running.push(instances[i]);
      }
      const { key } = instances[0].owner;
      const clients = await Promise.all(instances.map((instance) => startClient("sdk-lookup", instance, key)));
      running.push(...clients);
      const keyless = await startClient("undici", instances[0], key);
      running.push(keyless);
      at[build.name] = { database, instances, clients, keyless };
    }

    const n = settings.scaleOutLookups;
    const contenders = {};
    for (const count of INSTANCES) {
      for (const { name } of builds) {
        const { database, instances, clients } = at[name];
        contenders[`${name}:${count}`] = async () => {
          const pids = instances.slice(0, count).map((instance) => instance.pid);
          const work = () => Promise.all(clients.slice(0, count).map((client) => client.ask({ calls: n / count, inFlight: IN_FLIGHT / count })));
          const { costs } = await costsDuring([...pids, database.backends], n, work);
          return { servers: costs.slice(0, count).reduce((sum, cost) => sum + cost, 0), postgres: costs[count] };
        };
      }
    }
    for (const { name } of builds) {
      const { database, instances, keyless } = at[name];
      contenders[`${name}:keyless`] = async () => {
        const { costs } = await costsDuring([instances[0].pid, database.backends], n, () => keyless.ask({ calls: n, inFlight: IN_FLIGHT }));
        return { servers: costs[0], postgres: costs[1] };
      };
    }
    // The instances on PostgreSQL + Redis run much library code (pg, its pool, ioredis, the limiter) that V8
    // compiles over their first thousands of lookups: a long warm-up for each before the rounds.
    const warm = settings.scaleOutWarmUp;
    await Promise.all(Object.values(at).flatMap(({ clients, keyless }) => [
      ...clients.map((client) => client.ask({ calls: warm, inFlight: 2 })),
      keyless.ask({ calls: warm, inFlight: 2 }),
    ]));
    const all = await rounds(settings.scaleOutRounds, contenders, settings.warmUpRounds);

    return [
      ...INSTANCES.flatMap((count) => {
        const on = `PostgreSQL + Redis, ${count} instance${count > 1 ? "s" : ""}, SDK lookup`;
        return [
          buildRow(all, builds, `${on}, instances' CPU`, "µs/lookup", (r, b) => r[`${b}:${count}`].servers),
          buildRow(all, builds, `${on}, PostgreSQL CPU`, "µs/lookup", (r, b) => r[`${b}:${count}`].postgres),
        ];
      }),
      buildRow(all, builds, "PostgreSQL + Redis, 1 instance, lookup without a key (undici.request), instance CPU", "µs/lookup", (r, b) => r[`${b}:keyless`].servers, { judged: false }),
      timesRow(all, builds, "PostgreSQL + Redis: SDK lookup ÷ lookup without a key (undici.request), instance CPU (issue 58: ≤ 1.15)", (r, b) => r[`${b}:1`].servers / r[`${b}:keyless`].servers),
    ];
  } finally {
    await Promise.all(running.map((child) => child.stop()));
    for (const database of databases) await database.drop();
  }
}
