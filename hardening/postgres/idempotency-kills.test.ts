import { afterAll, describe, it } from "vitest";
import { createTestDatabase, killServerProcesses, serverCommand, startServerProcess, type TestDatabase } from "@iccid/server/testing";
import { killUnderKeyedLoad } from "../keyed-kills.js";
import { SEED } from "../support.js";

// SIGKILL at random moments under keyed load on PostgreSQL with Redis: proofs go in with their charges
// (commit_charges), claims live in Redis. Each start uses a Redis prefix of its own: the claims a killed
// instance held are then gone, as they are 5 minutes after the kill, without waiting for it.
const PG = new URL(process.env.ICCID_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test");
const REDIS = process.env.ICCID_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
let database: TestDatabase | undefined;
afterAll(async () => {
  killServerProcesses();
  await database?.drop();
});

describe("Idempotency-Key across SIGKILLs on PostgreSQL", () => {
  it("replays every charged request uncharged, and runs every other one again", async () => {
    database = await createTestDatabase(PG.href);
    const url = new URL(PG.href);
    url.pathname = `/${database.name}`;
    serverCommand(url.href, ["plan", "set", "standard", "--rate-limit", "100000", "--window", "60", "--monthly-lookups", "1000000"]);
    const start = (round: number) => startServerProcess(url.href, { args: ["--redis", REDIS, "--redis-prefix", `iccid-kills-${process.pid}-${round}`] });
    console.log(await killUnderKeyedLoad(start, 3, SEED));
  });
});
