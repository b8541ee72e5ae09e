import { randomBytes } from "node:crypto";
import pg from "pg";
import { connectRedis, redisReady } from "../../packages/server/dist/index.js";
import { cpuDuring } from "../lib/cpu.mjs";
import { medianOver, rounds, serverCost } from "../lib/load.mjs";
import { startServer } from "../lib/processes.mjs";
import { costRow, row } from "../lib/table.mjs";

const LOOKUP = { path: "/api/v1/iccid/lookup", body: JSON.stringify({ iccid: "89441000000000000018" }), connections: 10 };
const WARM_UP_LOOKUPS = 20_000;

/** A database of this run's own, so pg_stat_activity tells its backends apart from everyone else's. */
async function createDatabase(adminUrl) {
  const name = `iccid_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    /** The pids of the backends serving this database, other than `admin`'s own. */
    backends: async () =>
      (await admin.query("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name])).rows.map((r) => r.pid),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * An instance on PostgreSQL + Redis against one on SQLite, each its own CPU time per lookup; and what
 * PostgreSQL (the backends serving the instance's database) and Redis (its server process, shared with
 * whoever else uses it) spend per lookup. ICCID_TEST_POSTGRES_URL and ICCID_TEST_REDIS_URL say where they
 * are (default: their usual local ports).
 */
export async function scaleOutRows({ settings }) {
  // The same services `npm test` looks for: PostgreSQL and Redis on their default local ports.
  const pgUrl = process.env.ICCID_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const redisUrl = process.env.ICCID_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const database = await createDatabase(pgUrl);
  const redis = connectRedis(redisUrl);
  if (!(await redisReady(redis))) throw new Error(`Redis at ${redisUrl} is not reachable`);
  const redisPid = Number(/process_id:(\d+)/.exec(await redis.info("server"))[1]);
  const [scaled, sqlite] = await Promise.all([startServer("iccid-pg", { BENCH_PG_URL: database.url }), startServer("iccid")]);
  const amount = settings.scaleOutLookups;
  try {
    // A long warm-up for both first: the instance on PostgreSQL + Redis runs much more library code (pg,
    // its pool, ioredis, the limiter) for V8 to compile, and its figure kept falling over the first
    // 10,000 lookups (271 → 135 µs in a profile); measured before that, it was timing the compiler.
    await Promise.all([scaled, sqlite].map((server) => server.post({ ...LOOKUP, amount: WARM_UP_LOOKUPS })));
    const all = await rounds(settings.scaleOutRounds, {
      onPg: async () => {
        let rate = 0;
        const [instance, postgres, redisMicros] = await cpuDuring([scaled.pid, database.backends, redisPid], async () => {
          rate = await scaled.post({ ...LOOKUP, amount });
        });
        return { cost: instance / amount, postgres: postgres / amount, redis: redisMicros / amount, rate };
      },
      onSqlite: () => serverCost(sqlite, { ...LOOKUP, amount }),
    });
    const m = (figure) => medianOver(all, figure);
    const sqliteCost = m((r) => r.onSqlite.cost);
    // The scale-out bars: an instance on PostgreSQL + Redis costs at most 1.5 × one on SQLite (ratio ≥ 0.67),
    // and PostgreSQL's backends at most 60 µs per lookup. That ceiling is a fixed figure, so the row moves
    // with the machine's speed; the same cost against the instance on SQLite in the same rounds does not.
    return [
      costRow("instance on PostgreSQL + Redis (CPU)", m((r) => r.onPg.cost), sqliteCost, "µs/lookup vs instance on SQLite", "≥ 0.67", m((r) => r.onSqlite.cost / r.onPg.cost)),
      row("PostgreSQL backends (CPU)", m((r) => r.onPg.postgres), 60, "µs/lookup vs 60 µs ceiling", "≤ 1"),
      row("PostgreSQL backends vs an instance (CPU)", m((r) => r.onPg.postgres), sqliteCost, "µs/lookup vs instance on SQLite", null, m((r) => r.onPg.postgres / r.onSqlite.cost)),
      row("Redis server (CPU)", m((r) => r.onPg.redis), sqliteCost, "µs/lookup vs instance on SQLite", null, m((r) => r.onPg.redis / r.onSqlite.cost)),
      row("instance on PostgreSQL + Redis (throughput)", m((r) => r.onPg.rate), m((r) => r.onSqlite.rate), "req/s vs instance on SQLite", null),
    ];
  } finally {
    await Promise.all([scaled.stop(), sqlite.stop()]);
    await redis.quit();
    await database.drop();
  }
}
