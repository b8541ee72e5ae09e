import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
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

  it("sends no-store, nosniff and no-referrer on success and on errors, the lookups' own answers too", async () => {
    const answers = [
      await call(server.url, "GET", "/healthz"),
      await call(server.url, "GET", "/nope"),
      await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } }),
      await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids: ["89441000000000000018"] } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 200, 200]);
    for (const r of answers) {
      expect(r.headers["cache-control"]).toBe("no-store");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["referrer-policy"]).toBe("no-referrer");
      expect(r.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
    }
  });

  it("echoes the request id on a lookup's answer, which carries it once", async () => {
    const r = await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" }, headers: { "x-request-id": "lookup-1" } });
    expect(r.headers["x-request-id"]).toBe("lookup-1");
    expect(r.headers["content-length"]).toBe(String(Buffer.byteLength(r.text)));
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
