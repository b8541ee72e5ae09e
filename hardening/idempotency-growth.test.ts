import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killServerProcesses, ownerCredentials, serverCommand, startServerProcess, stopServerProcess } from "@iccid/server/testing";
import { nthIccid, pool, send } from "./support.js";

// What requests with an Idempotency-Key leave in the SQLite file (docs/operations.md): a fixed-size proof
// for each request that was charged, nothing for one that was not, whatever the batch's size. Measured on
// the built server, the file checkpointed (the server stopped, which folds the WAL into the file).
const dir = mkdtempSync(join(tmpdir(), "iccid-growth-"));
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

const db = join(dir, "growth.db");
const fileBytes = () => [db, `${db}-wal`].reduce((sum, f) => sum + (statSync(f, { throwIfNoEntry: false })?.size ?? 0), 0);

/** Starts the server, sends what `load` sends, stops it: answers how many bytes the file grew by. */
async function growth(load: (url: string, key: string) => Promise<void>, key?: string): Promise<{ bytes: number; key: string }> {
  const before = fileBytes();
  const server = await startServerProcess(db);
  const apiKey = key ?? (await ownerCredentials(server)).key;
  await load(server.url, apiKey);
  expect(await stopServerProcess(server)).toBe(0);
  return { bytes: fileBytes() - before, key: apiKey };
}

const headers = (key: string, idempotencyKey: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idempotencyKey });

describe("SQLite growth from Idempotency-Key requests", () => {
  it("grows by at most 150 bytes a single lookup, and by nearly nothing for batches that charged nothing", async () => {
    serverCommand(db, ["migrate"]); // plan set changes a database; it does not make one
    serverCommand(db, ["plan", "set", "standard", "--rate-limit", "1000000", "--window", "60", "--monthly-lookups", "100000000"]);
    // The first start bootstraps the owner and its key, and the key's first use is written: not counted.
    const { key } = await growth(async (url, apiKey) => {
      expect((await send(url, "POST", "/api/v1/iccid/lookup", headers(apiKey, "warm-up"), JSON.stringify({ iccid: nthIccid(0) }))).status).toBe(200);
    });

    const singles = 20_000;
    const single = await growth(async (url) => {
      await pool(
        Array.from({ length: singles }, (_, i) => i + 1),
        16,
        async (n) => {
          const r = await send(url, "POST", "/api/v1/iccid/lookup", headers(key, `single-${n}`), JSON.stringify({ iccid: nthIccid(n) }));
          if (r.status !== 200) throw new Error(`lookup ${n}: ${r.status} ${r.text}`);
        },
      );
    }, key);

    const batches = 250;
    const malformed = JSON.stringify({ iccids: Array.from({ length: 1_000 }, (_, i) => `not an iccid ${i}`) });
    const failed = await growth(async (url) => {
      await pool(
        Array.from({ length: batches }, (_, i) => i),
        8,
        async (n) => {
          const r = await send(url, "POST", "/api/v1/iccid/batch", headers(key, `malformed-${n}`), malformed);
          if (r.status !== 200 || r.body.summary.failed !== 1_000) throw new Error(`batch ${n}: ${r.status}`);
        },
      );
    }, key);

    console.log(
      `SQLite growth: ${singles} keyed single lookups ${single.bytes} bytes (${(single.bytes / singles).toFixed(1)} a request); ` +
        `${batches} all-malformed keyed batches of 1,000 ${failed.bytes} bytes`,
    );
    expect(single.bytes / singles).toBeLessThanOrEqual(150);
    expect(failed.bytes).toBeLessThan(1_000_000);
  });
});
