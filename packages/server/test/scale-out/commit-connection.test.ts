import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailable } from "../../src/store/errors.js";
import { CommitConnection } from "../../src/store/group-commit/commit-connection.js";
import { numberArray, textArray, uuidArray } from "../../src/store/postgres/pg-arrays.js";

// The group commit's own connection (commit-connection.ts): a named statement parsed once per connection,
// then bound and executed with text values; a connection that failed is replaced on the next call.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;
const ECHO = { name: "echo_arrays", text: "SELECT unnest($1::text[]) AS t, $2::bigint[] AS n, $3::uuid[] AS u, pg_backend_pid() AS pid" };
const FAILS = { name: "fails_on_zero", text: "SELECT 1 / $1::int AS x" };

let admin: pg.Client;
let connection: CommitConnection;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  connection = new CommitConnection({ connectionString: PG });
});
afterAll(async () => {
  await connection?.close();
  await admin?.end();
});

const pidOf = async () => Number((await connection.call(ECHO, ["{x}", "{}", "{}"]))[0]![3]);

describe("the group commit's connection", () => {
  it("sends array literals PostgreSQL reads back element for element, quotes and backslashes too", async () => {
    const texts = ['a"b', "c\\d", "", "NULL", " spaced ", "{,}", "ünï"];
    const token = "0b7e4f6e-3c1a-4a39-9d44-6a3f0f0c2e11";
    const rows = await connection.call(ECHO, [textArray(texts), numberArray([0, -5, 2 ** 53 - 1]), uuidArray([token])]);
    expect(rows.map((r) => r[0])).toEqual(texts);
    expect(rows[0]![1]).toBe(`{0,-5,${2 ** 53 - 1}}`);
    expect(rows[0]![2]).toBe(`{${token}}`);
    expect(() => numberArray([1.5])).toThrow(TypeError);
  });

  it("keeps one connection (and its prepared statement) from call to call", async () => {
    expect(await pidOf()).toBe(await pidOf());
  });

  it("answers a statement's error, then goes on on a new connection", async () => {
    const before = await pidOf();
    await expect(connection.call(FAILS, ["0"])).rejects.toMatchObject({ code: "22012" }); // division_by_zero
    expect(await connection.call(FAILS, ["1"])).toEqual([["1"]]);
    expect(await pidOf()).not.toBe(before);
  });

  it("replaces a connection that was lost", async () => {
    const lost = await pidOf();
    await admin.query("SELECT pg_terminate_backend($1)", [lost]);
    // The loss may be noticed by the next call (which then fails as a lost connection) or before it.
    await connection.call(ECHO, ["{x}", "{}", "{}"]).catch((error: Error) => expect(error.message).toMatch(/terminat|Connection/i));
    const now = await pidOf();
    expect(now).not.toBe(lost);
  });

  it("is StoreUnavailable when no connection can be made, before anything was sent", async () => {
    const nowhere = new URL(PG);
    nowhere.port = "1"; // nothing listens there
    const unreachable = new CommitConnection({ connectionString: nowhere.href, connectionTimeoutMillis: 2_000 });
    await expect(unreachable.call(ECHO, ["{}", "{}", "{}"])).rejects.toBeInstanceOf(StoreUnavailable);
    await unreachable.close();
  });
});
