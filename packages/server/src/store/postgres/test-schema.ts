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
