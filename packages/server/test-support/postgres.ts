import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestSchema {
  name: string;
  drop(): Promise<void>;
}

/** A fresh, uniquely named schema: tests share one PostgreSQL without seeing each other's rows. */
export async function createTestSchema(url: string): Promise<TestSchema> {
  const name = `iccid_test_${randomBytes(6).toString("hex")}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${name}`);
  return { name, drop: () => run(`DROP SCHEMA IF EXISTS ${name} CASCADE`) };
}

export interface TestDatabase {
  name: string;
  /** Terminates every connection to the database (a restart, as its clients see it); returns how many. */
  terminateBackends(): Promise<number>;
  drop(): Promise<void>;
}

/** A fresh, uniquely named database on the PostgreSQL at `url` (for tests that need an empty one). */
export async function createTestDatabase(url: string): Promise<TestDatabase> {
  const name = `iccid_test_${randomBytes(6).toString("hex")}`;
  const run = async (sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  return {
    name,
    terminateBackends: async () =>
      (await run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name])).rowCount ?? 0,
    drop: async () => void (await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}
