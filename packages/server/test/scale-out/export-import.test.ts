import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createTestSchema,
  killServerProcesses,
  ownerCredentials,
  SERVER_BIN,
  startServerProcess,
  stopServerProcess,
  type TestSchema,
} from "../../test-support/index.js";
import { call } from "../http.js";

// The documented move from one machine to several: export the SQLite file, import into PostgreSQL,
// start on PostgreSQL, and find every account, key and counter there. Uses the real built binary.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;
let dir: string;
let schema: TestSchema;

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [SERVER_BIN, ...args], { encoding: "utf8", env: { ...process.env, ...env } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-move-"));
  schema = await createTestSchema(PG);
});
afterAll(async () => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
  await schema?.drop();
});

it("moves a SQLite database to PostgreSQL with export and import", async () => {
  const sqlite = join(dir, "iccid.db");
  const source = await startServerProcess(sqlite);
  const { key } = await ownerCredentials(source);
  for (let i = 0; i < 3; i++) {
    expect((await call(source.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } })).status).toBe(200);
  }
  await stopServerProcess(source);

  const dump = join(dir, "dump.jsonl");
  const exported = run(["export", "--db", sqlite, "--out", dump]);
  expect(exported.status).toBe(0);
  expect(exported.stderr).toMatch(/exported [\d,]+ rows/);

  const target = `${PG}${PG.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema.name}`)}`;
  const imported = run(["import", dump, "--db", target]);
  expect(imported.stderr).toMatch(/^migrated the database at postgres:\S+ from schema version 0 to \d+\nimported [\d,]+ rows\n$/);
  expect(imported.status).toBe(0);
  expect(run(["import", dump, "--db", target]).stderr).toMatch(/already has accounts/);

  const moved = await startServerProcess(target);
  try {
    expect(moved.stderr()).not.toMatch(/API key/); // the owner came along: no second bootstrap
    const usage = await call(moved.url, "GET", "/api/v1/usage", { key });
    expect(usage.status).toBe(200);
    expect(usage.body.totals).toEqual({ requests: 3, lookups: 3 });
    expect((await call(moved.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } })).status).toBe(200);
  } finally {
    await stopServerProcess(moved);
  }
});
