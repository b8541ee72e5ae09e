import { Validator } from "@seriousme/openapi-schema-validator";
import { PROBLEM_CODE_LIST } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiPath } from "../src/routes/route.js";
import { ROUTE_TABLE } from "../src/routes/table.js";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call } from "./http.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

// The contract's surface, written out: the table the router and the document are built from must hold
// exactly these, so a route dropped or renamed in the table fails here.
const CONTRACT = [
  "get /healthz",
  "get /readyz",
  "get /api/v1/openapi.json",
  "post /api/v1/iccid/lookup",
  "post /api/v1/iccid/batch",
  "post /api/v1/eid/lookup",
  "post /api/v1/eid/batch",
  "get /api/v1/usage",
  "get /api/v1/account/usage",
  "post /api/v1/session",
  "get /api/v1/session",
  "delete /api/v1/session",
  "delete /api/v1/sessions",
  "get /api/v1/keys",
  "post /api/v1/keys",
  "delete /api/v1/keys/{id}",
  "post /api/v1/keys/{id}/roll",
  "get /api/v1/audit",
  "get /",
  "get /account",
  "get /account/assets/{file}",
  "get /docs/errors",
];
const ROUTES = ROUTE_TABLE.map((route) => [route.method, openApiPath(route.path)] as const);

// A value for each path parameter, so the request reaches the route's handler.
const SAMPLE_PARAMS: Record<string, string> = { id: "key_x", file: "account.css" };
const samplePath = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE_PARAMS[name] ?? "x");

describe("OpenAPI document", () => {
  it("is served and passes an OpenAPI 3.1 validator", async () => {
    const r = await call(server.url, "GET", "/api/v1/openapi.json");
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe("3.1.0");
    const result = await new Validator().validate(r.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every route the server answers, and only those", async () => {
    const doc = (await call(server.url, "GET", "/api/v1/openapi.json")).body;
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(ROUTES.map(([m, p]) => `${m} ${p}`).sort()).toEqual([...CONTRACT].sort());
    expect(documented.sort()).toEqual([...CONTRACT].sort());
    for (const [method, path] of ROUTES) {
      const r = await call(server.url, method.toUpperCase(), samplePath(path));
      // Routed: whatever the answer (401 without credentials, 404 for the made-up key id), never "no such route".
      expect(r.status, `${method} ${path}`).not.toBe(405);
      expect(r.body?.detail, `${method} ${path}`).not.toBe("No such route.");
    }
  });

  it("documents the Idempotency-Key header and its problems on exactly the routes that take one", async () => {
    const doc = (await call(server.url, "GET", "/api/v1/openapi.json")).body;
    const taking = ROUTES.filter(([method, path]) => {
      const op = doc.paths[path][method] as { parameters?: Array<{ name: string; in: string }> };
      return (op.parameters ?? []).some((p) => p.name === "Idempotency-Key" && p.in === "header");
    });
    expect(taking.map(([method, path]) => `${method} ${path}`)).toEqual(["post /api/v1/iccid/lookup", "post /api/v1/iccid/batch", "post /api/v1/eid/lookup", "post /api/v1/eid/batch", "post /api/v1/keys"]);
    for (const [method, path] of taking) {
      const responses = doc.paths[path][method].responses as Record<string, { description: string }>;
      expect(responses["400"]!.description).toContain("invalid_idempotency_key");
      expect(responses["409"]!.description).toContain("idempotency_key_in_use");
      expect(responses["422"]!.description).toContain("idempotency_key_reused");
    }
  });

  it("documents a CSV form, with the lookup row's header as its example, on the ICCID batch alone", async () => {
    const doc = (await call(server.url, "GET", "/api/v1/openapi.json")).body;
    const withCsv = ROUTES.filter(([method, path]) => "text/csv" in (doc.paths[path][method].responses["200"]?.content ?? {}));
    expect(withCsv.map(([method, path]) => `${method} ${path}`)).toEqual(["post /api/v1/iccid/batch"]);
    // The example is the header line a CSV batch answer starts with.
    const answer = await call(server.url, "POST", "/api/v1/iccid/batch", { key: server.owner.apiKey, body: { iccids: ["89441000000000000018"] }, headers: { accept: "text/csv" } });
    const csv = doc.paths["/api/v1/iccid/batch"].post.responses["200"].content["text/csv"];
    expect(csv.example).toBe(answer.text.slice(0, answer.text.indexOf("\n") + 1));
    expect(csv.example).toMatch(/^iccid,valid,luhn,/);
    expect(Object.keys(doc.paths["/api/v1/eid/batch"].post.responses["200"].content)).toEqual(["application/json"]);
  });

  it("validates real answers against the documented schemas", async () => {
    const doc = (await call(server.url, "GET", "/api/v1/openapi.json")).body;
    const lookup = await call(server.url, "POST", "/api/v1/iccid/lookup", { key: server.owner.apiKey, body: { iccid: "89441000000000000018" } });
    const schema = doc.components.schemas.LookupResult;
    // Every member but the optional imsi, which is there exactly when the request sent an IMSI.
    expect(schema.required.sort()).toEqual(Object.keys(lookup.body).sort());
    const withImsi = await call(server.url, "POST", "/api/v1/iccid/lookup", {
      key: server.owner.apiKey,
      body: { iccid: "89441000000000000018", imsi: "234150123456789" },
    });
    expect(Object.keys(withImsi.body).sort()).toEqual(Object.keys(schema.properties).sort());
    const imsi = doc.components.schemas.ImsiAnswer;
    expect(Object.keys(withImsi.body.imsi).sort()).toEqual([...imsi.required].sort());
    const eid = await call(server.url, "POST", "/api/v1/eid/lookup", { key: server.owner.apiKey, body: { eid: "89049032123451234512345678901235" } });
    expect(Object.keys(eid.body).sort()).toEqual([...doc.components.schemas.EidResult.required].sort());
  });
});

describe("/docs/errors", () => {
  it("lists every error code of the contract", async () => {
    const r = await call(server.url, "GET", "/docs/errors");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^text\/html/);
    expect(r.headers["content-security-policy"]).toMatch(/default-src 'none'/);
    for (const code of PROBLEM_CODE_LIST) expect(r.text).toContain(`id="${code}"`);
  });
});
