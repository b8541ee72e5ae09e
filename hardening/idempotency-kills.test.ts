import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { killServerProcesses, serverCommand, startServerProcess } from "@iccid/server/testing";
import { killUnderKeyedLoad } from "./keyed-kills.js";
import { SEED } from "./support.js";

// SIGKILL at random moments under keyed load on SQLite: a request's proof and its charge commit together,
// so a request charged before a kill replays uncharged, and one that was not charged runs again.
const dir = mkdtempSync(join(tmpdir(), "iccid-kills-"));
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

describe("Idempotency-Key across SIGKILLs on SQLite", () => {
  it("replays every charged request uncharged, and runs every other one again", async () => {
    const db = join(dir, "kills.db");
    serverCommand(db, ["migrate"]); // plan set changes a database; it does not make one
    serverCommand(db, ["plan", "set", "standard", "--rate-limit", "100000", "--window", "60", "--monthly-lookups", "1000000"]);
    console.log(await killUnderKeyedLoad(() => startServerProcess(db), 3, SEED));
  });
});
