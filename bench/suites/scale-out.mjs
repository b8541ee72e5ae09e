import { createTestSchema } from "../../packages/server/dist/index.js";
import { abRounds, postRate } from "../lib/load.mjs";
import { startServer } from "../lib/processes.mjs";
import { row } from "../lib/table.mjs";

const BODY = JSON.stringify({ iccid: "89441000000000000018" });

/** Two instances on PostgreSQL + Redis vs one on SQLite (needs ICCID_TEST_POSTGRES_URL and _REDIS_URL). */
export async function scaleOutRows({ settings }) {
  const pg = process.env.ICCID_TEST_POSTGRES_URL;
  if (!pg || !process.env.ICCID_TEST_REDIS_URL) {
    process.stderr.write("bench: scale-out skipped (set ICCID_TEST_POSTGRES_URL and ICCID_TEST_REDIS_URL)\n");
    return [];
  }
  const schema = await createTestSchema(pg);
  const first = await startServer("iccid-pg", { BENCH_SCHEMA: schema.name });
  const second = await startServer("iccid-pg", { BENCH_SCHEMA: schema.name, BENCH_KEY: first.key });
  const sqlite = await startServer("iccid");
  try {
    const load = (server, connections) =>
      postRate({ url: server.url, path: "/api/v1/iccid/lookup", key: server.key, body: BODY, connections, seconds: settings.seconds });
    const { a, b } = await abRounds(
      settings.rounds,
      async () => (await Promise.all([load(first, 5), load(second, 5)])).reduce((x, y) => x + y, 0),
      () => load(sqlite, 10),
    );
    return [row("2 instances on PostgreSQL + Redis (req/s)", a, b, "req/s vs 1 on SQLite", null)];
  } finally {
    await Promise.all([first.stop(), second.stop(), sqlite.stop()]);
    await schema.drop();
  }
}
