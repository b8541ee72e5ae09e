// A PostgreSQL database of the run's own, so that pg_stat_activity tells its backends apart from everyone
// else's; dropped at the end (also when the run is interrupted). ICCID_TEST_POSTGRES_URL names the server
// (default: its usual local port).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { undoOnInterrupt } from "./interrupt.mjs";

export const POSTGRES_URL = process.env.ICCID_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Creates the database; resolves with {url, backends() (pids of its backends), drop()}. */
export async function createDatabase() {
  const name = `iccid_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  const forget = undoOnInterrupt(drop);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    /** The pids of the backends serving this database, other than the admin connection's own. */
    backends: async () =>
      (await admin.query("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name])).rows.map((r) => r.pid),
    async drop() {
      forget();
      await drop();
    },
  };
}
