import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { luhnCheckDigit } from "@iccid/core";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { IccidDecoder } from "../src/decode/decoder.js";
import { listen } from "../src/http-server.js";
import { Accounts } from "../src/services/accounts.js";
import { ApiKeys } from "../src/services/api-keys.js";
import { DEFAULT_PLAN } from "../src/settings.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { systemClock } from "../src/time.js";
import { call } from "./http.js";

// The kept answers live in the SQLite file: a server started again on it replays what the one before answered.
const dir = mkdtempSync(join(tmpdir(), "iccid-idem-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start() {
  const store = new SqliteStore(join(dir, "iccid.db"));
  await store.migrate();
  const running = await listen(createApp({ store, decoder: new IccidDecoder() }), { host: "127.0.0.1", port: 0, store });
  return { store, running };
}

describe("Idempotency-Key across a restart on SQLite", () => {
  it("replays an answer given before the restart, charged once", async () => {
    const first = await start();
    await first.store.upsertPlan(DEFAULT_PLAN);
    const account = await new Accounts(first.store, systemClock).create({ email: "restart@example.test", password: "correct horse battery staple", plan: DEFAULT_PLAN.name });
    const { key } = await new ApiKeys(first.store, systemClock).create(account.id, null);
    const body = { iccid: "894410000000000000" + luhnCheckDigit("894410000000000000") };
    const before = await call(first.running.url, "POST", "/api/v1/iccid/lookup", { key, body, headers: { "idempotency-key": "once" } });
    expect(before.status).toBe(200);
    await first.running.close();

    const second = await start();
    try {
      const after = await call(second.running.url, "POST", "/api/v1/iccid/lookup", { key, body, headers: { "idempotency-key": "once" } });
      expect(after.status).toBe(200);
      expect(after.headers["idempotent-replayed"]).toBe("true");
      expect(after.text).toBe(before.text);
      const usage = await call(second.running.url, "GET", "/api/v1/usage", { key });
      expect(usage.body.totals).toEqual({ requests: 1, lookups: 1 });
    } finally {
      await second.running.close();
    }
  });
});
