import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createTestSchema,
  killServerProcesses,
  ownerCredentials,
  SERVER_BIN,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
  type TestSchema,
} from "../../test-support/index.js";
import { eventually } from "../eventually.js";
import { call } from "../http.js";

// Two instances of the built server on one PostgreSQL schema: a custom prefix imported through the
// command reaches both without a restart, and so does its removal.
const PG = process.env.ICCID_TEST_POSTGRES_URL!;
let schema: TestSchema;
let target: string;
let servers: ServerProcess[] = [];
let dir: string;

const run = (args: string[]) => spawnSync(process.execPath, [SERVER_BIN, ...args, "--db", target], { encoding: "utf8" });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-prefixes-"));
  schema = await createTestSchema(PG);
  target = `${PG}${PG.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema.name}`)}`;
});
afterAll(async () => {
  for (const server of servers) await stopServerProcess(server).catch(() => {});
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
  await schema?.drop();
});

it("applies imported and removed custom prefixes on every instance without a restart", async () => {
  servers = [await startServerProcess(target)];
  const { key } = await ownerCredentials(servers[0]!);
  servers.push(await startServerProcess(target));
  const issuerOn = async (server: ServerProcess) =>
    (await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } })).body.issuer;
  for (const server of servers) expect((await issuerOn(server)).origin).toBe("itu-e118");

  const csv = join(dir, "issuers.csv");
  writeFileSync(csv, "894410,Shared MVNO,GB\n");
  const imported = run(["issuers", "import", csv]);
  expect(imported.stderr).toBe("imported 1 prefix; running servers use the change within 1 s\n");
  for (const server of servers) {
    await eventually(async () => expect(await issuerOn(server)).toMatchObject({ name: "Shared MVNO", origin: "custom" }));
  }

  expect(run(["issuers", "remove", "894410"]).stderr).toMatch(/^removed 1 prefix;/);
  for (const server of servers) await eventually(async () => expect((await issuerOn(server)).origin).toBe("itu-e118"));
});
