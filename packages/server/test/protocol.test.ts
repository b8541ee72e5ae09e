import { pino } from "pino";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { IccidDecoder } from "../src/decode/decoder.js";
import { listen, type RunningServer } from "../src/http-server.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Store } from "../src/store/store.js";
import { startTestServer, type TestServer } from "../src/testing.js";
import { call } from "./http.js";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ bodyLimitBytes: 4096 });
  key = server.owner.apiKey;
});
afterAll(async () => server?.close());

describe("wire basics", () => {
  it("echoes a sane X-Request-Id and replaces an insane one", async () => {
    const sane = await call(server.url, "GET", "/healthz", { headers: { "x-request-id": "abc.DEF_123-x" } });
    expect(sane.headers["x-request-id"]).toBe("abc.DEF_123-x");
    const insane = await call(server.url, "GET", "/healthz", { headers: { "x-request-id": "a b<script>" } });
    expect(insane.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
    const long = await call(server.url, "GET", "/healthz", { headers: { "x-request-id": "x".repeat(129) } });
    expect(long.headers["x-request-id"]).not.toBe("x".repeat(129));
  });

  it("sends no-store and nosniff on success and on errors", async () => {
    for (const r of [await call(server.url, "GET", "/healthz"), await call(server.url, "GET", "/nope")]) {
      expect(r.headers["cache-control"]).toBe("no-store");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it("answers /healthz without auth", async () => {
    const r = await call(server.url, "GET", "/healthz");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok" });
  });
});

describe("protocol errors are problem+json", () => {
  const lookupPath = "/api/v1/iccid/lookup";

  it("404 not_found for an unknown route", async () => {
    const r = await call(server.url, "GET", "/api/v1/nothing-here");
    expect(r.status).toBe(404);
    expect(r.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(r.body).toMatchObject({ type: "/docs/errors#not_found", title: "Not found", status: 404, code: "not_found" });
    expect(r.body.request_id).toBe(r.headers["x-request-id"]);
  });

  it("405 method_not_allowed with Allow for a known path", async () => {
    const r = await call(server.url, "GET", lookupPath, { key });
    expect(r.status).toBe(405);
    expect(r.body.code).toBe("method_not_allowed");
    expect(r.headers.allow).toBe("POST");
  });

  it("413 payload_too_large past the body limit", async () => {
    const big = JSON.stringify({ iccid: "8".repeat(5000) });
    const declared = await call(server.url, "POST", lookupPath, { key, raw: big, headers: { "content-type": "application/json" } });
    expect(declared.status).toBe(413);
    expect(declared.body.code).toBe("payload_too_large");
  });

  it("415 unsupported_media_type for a body that is not JSON", async () => {
    const r = await call(server.url, "POST", lookupPath, { key, raw: "iccid=8944", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(415);
    expect(r.body.code).toBe("unsupported_media_type");
  });

  it("422 malformed_json for unparsable JSON", async () => {
    const r = await call(server.url, "POST", lookupPath, { key, raw: '{"iccid": "89', headers: { "content-type": "application/json" } });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("malformed_json");
  });
});

describe("faults", () => {
  let running: RunningServer;
  let store: SqliteStore;
  const logLines: string[] = [];
  beforeAll(async () => {
    store = new SqliteStore(server.dbPath);
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
  afterAll(async () => running?.close());

  it("500 internal_error without stack or SQL, and a log line without them either", async () => {
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
    const closed = new SqliteStore(server.dbPath);
    const iccidApp = createApp({ store: closed, decoder: new IccidDecoder() });
    const other = await listen(iccidApp, { host: "127.0.0.1", port: 0, store: closed });
    await closed.close();
    const r = await call(other.url, "GET", "/healthz");
    expect(r.status).toBe(503);
    expect(r.body.code).toBe("unavailable");
    await other.close();
  });
});
