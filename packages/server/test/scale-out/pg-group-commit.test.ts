import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_QUERY_TIMEOUT_MS, StoreUnavailable } from "../../src/store/errors.js";
import { PgGroupCommit } from "../../src/store/group-commit/pg-group-commit.js";
import { numberArray, TEXT_FIELDS, textArray, uuidArray } from "../../src/store/postgres/pg-arrays.js";

// What the group commit sends PostgreSQL (pg-group-commit.ts): array parameters written as literals,
// rows read as text; and a connection that cannot be made is StoreUnavailable, before anything was sent.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;

let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: PG });
  await client.connect();
});
afterAll(async () => client?.end());

describe("the group commit on PostgreSQL", () => {
  it("sends array literals PostgreSQL reads back element for element, quotes and backslashes too", async () => {
    const texts = ['a"b', "c\\d", "", "NULL", " spaced ", "{,}", "ünï"];
    const token = "0b7e4f6e-3c1a-4a39-9d44-6a3f0f0c2e11";
    const { rows } = await client.query<string[]>({
      text: "SELECT unnest($1::text[]) AS t, $2::bigint[] AS n, $3::uuid[] AS u",
      values: [textArray(texts), numberArray([0, -5, 2 ** 53 - 1]), uuidArray([token])],
      rowMode: "array",
      types: TEXT_FIELDS,
    });
    expect(rows.map((r) => r[0])).toEqual(texts);
    expect(rows[0]![1]).toBe(`{0,-5,${2 ** 53 - 1}}`);
    expect(rows[0]![2]).toBe(`{${token}}`);
    expect(() => numberArray([1.5])).toThrow(TypeError);
  });

  it("is StoreUnavailable when no connection can be made, before anything was sent", async () => {
    const nowhere = new URL(PG);
    nowhere.port = "1"; // nothing listens there
    const pool = new pg.Pool({ connectionString: nowhere.href, connectionTimeoutMillis: 2_000 });
    pool.on("error", () => {});
    const commit = new PgGroupCommit(pool, { named: true, timeoutMs: DEFAULT_QUERY_TIMEOUT_MS });
    const charge = { account_id: "acc_x", key_id: "key_x", period_start: 0, bucket_start: 0, lookups: 1, quota_limit: 10 };
    await expect(commit.commit([charge], performance.now() + 5_000)).rejects.toBeInstanceOf(StoreUnavailable);
    await commit.close();
    await pool.end();
  });
});
