import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { formatApiKey } from "@iccid/core";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { IccidDecoder } from "../src/decode/decoder.js";
import { listen, type RunningServer } from "../src/http-server.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Store } from "../src/store/store.js";
import { call } from "./http.js";

// Faults a healthy server cannot show: a store that fails, a server that drains, a store that is gone.
describe("faults", () => {
  let running: RunningServer;
  let store: SqliteStore;
  let dir: string;
  let dbPath: string;
  const logLines: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "iccid-faults-"));
    dbPath = join(dir, "iccid.db");
    store = new SqliteStore(dbPath);
    await store.migrate();
    // A store whose key lookup fails the way a broken database does, with SQL in the message.
    const broken = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === "findKeyGrant") return async () => { throw new Error("SQLITE_CORRUPT: SELECT k.hash FROM api_keys WHERE secret"); };
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as Store;
    const sink = new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } });
    running = await listen(createApp({ store: broken, decoder: new IccidDecoder(), logger: pino(sink) }), {
      host: "127.0.0.1",
      port: 0,
      store: broken,
    });
  });
  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("500 internal_error without stack or SQL, and a log line without them either", async () => {
    const key = formatApiKey("a".repeat(22));
    const r = await call(running.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } });
    expect(r.status).toBe(500);
    expect(r.body.code).toBe("internal_error");
    expect(r.text).not.toMatch(/SQLITE|SELECT|at .*\.ts|Error:/);
    const log = logLines.join("");
    expect(log).toMatch(/unexpected error/);
    expect(log).not.toMatch(/SELECT|SQLITE_CORRUPT|iccid_/);
  });

  it("503 unavailable while draining", async () => {
    const iccidApp = createApp({ store, decoder: new IccidDecoder() });
    const other = await listen(iccidApp, { host: "127.0.0.1", port: 0, store });
    iccidApp.lifecycle.draining = true;
    const r = await call(other.url, "GET", "/healthz");
    expect(r.status).toBe(503);
    expect(r.body.code).toBe("unavailable");
    expect(r.headers["retry-after"]).toBe("1");
    iccidApp.lifecycle.draining = false;
    await other.close();
  });

  it("503 unavailable from /healthz when the store is unreachable", async () => {
    const closed = new SqliteStore(dbPath);
    const iccidApp = createApp({ store: closed, decoder: new IccidDecoder() });
    const other = await listen(iccidApp, { host: "127.0.0.1", port: 0, store: closed });
    await closed.close();
    const r = await call(other.url, "GET", "/healthz");
    expect(r.status).toBe(503);
    expect(r.body.code).toBe("unavailable");
    await other.close();
  });
});
