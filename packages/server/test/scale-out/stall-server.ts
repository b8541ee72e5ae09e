import pg from "pg";
import { createTestDatabase, ownerCredentials, serverCommand, startServerProcess, type ServerProcess, type TestDatabase } from "../../test-support/index.js";

/** The query timeout the stall tests serve with, and the margin an answer may take past it on a busy machine. */
export const TIMEOUT_S = 2;
export const BOUND_MS = TIMEOUT_S * 1000 + 1_500;

/** A database of its own, a server process on it (more `args` to `start`), and a direct connection for the faults. */
export interface StallServer {
  database: TestDatabase;
  url: string;
  server: ServerProcess;
  key: string;
  /** A connection of the test's own to the same database, never stopped or locked by a fault. */
  direct: pg.Client;
  /** The lookups and requests metered, and the quota used, summed over the database. */
  metered(): Promise<{ requests: number; lookups: number; used: number }>;
  close(): Promise<void>;
}

/** `databaseSetting`: a `SET` clause the database gets before anything connects to it (`statement_timeout = '500ms'`). */
export async function startStallServer({ args = [], databaseSetting }: { args?: string[]; databaseSetting?: string } = {}): Promise<StallServer> {
  const base = process.env.ICCID_TEST_POSTGRES_URL!;
  const database = await createTestDatabase(base);
  const url = new URL(base);
  url.pathname = `/${database.name}`;
  if (databaseSetting) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${database.name} SET ${databaseSetting}`).finally(() => admin.end());
  }
  // Far from the rate limit and the quota: every refusal seen is the fault's.
  serverCommand(url.href, ["plan", "set", "standard", "--rate-limit", "1000000", "--window", "60", "--monthly-lookups", "100000000"]);
  const server = await startServerProcess(url.href, { args: ["--query-timeout", String(TIMEOUT_S), "--pg-pool-size", "4", ...args] });
  const { key } = await ownerCredentials(server);
  const direct = new pg.Client({ connectionString: url.href });
  await direct.connect();
  return {
    database,
    url: url.href,
    server,
    key,
    direct,
    async metered() {
      const usage = await direct.query("SELECT coalesce(sum(requests), 0)::int AS requests, coalesce(sum(lookups), 0)::int AS lookups FROM usage_counters");
      const quota = await direct.query("SELECT coalesce(sum(used), 0)::int AS used FROM quota_counters");
      return { ...usage.rows[0], used: quota.rows[0].used };
    },
    async close() {
      server.child.kill("SIGKILL");
      await server.exited;
      await direct.end();
      await database.drop();
    },
  };
}
