import { Writable } from "node:stream";
import { formatApiKey } from "@iccid/core";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAK, pool, problemViolation, SEED, send } from "./support.js";

// At least 10,000 generated requests across every endpoint: malformed JSON, wrong and missing content
// types, huge and deeply nested bodies, wrong types, nulls, unicode and control characters, 1001 items,
// long strings, odd headers, bad cookies, bad Bearer values, path tricks on /keys/:id. Every answer must be
// a documented 2xx or 4xx (problem+json with the code that matches its status), never a 5xx; no answer and
// no log line may carry a stack trace, SQL or a secret; the server must still be up at the end.

const REQUESTS = 10_500;
let server: TestServer;
let cookie: string;
let password: string;
const logLines: string[] = [];

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Codes this case may legitimately get (besides a 2xx when none is listed). */
  expect?: readonly string[];
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  server = await startTestServer({
    plan: { rate_limit: 1_000_000, monthly_lookups: 100_000_000 },
    logTo: sink,
    settings: { loginAttemptsPerEmail: 1_000_000, loginAttemptsPerIp: 1_000_000 },
  });
  password = server.owner.password;
  const login = await send(server.url, "POST", "/api/v1/session", { "content-type": "application/json" }, JSON.stringify({ email: server.owner.email, password }));
  cookie = /iccid_session=[^;]+/.exec(login.headers["set-cookie"]!)![0];
});
afterAll(async () => server?.close());

function cases(): fc.Arbitrary<Case> {
  const key = () => server.owner.apiKey;
  const json = { "content-type": "application/json" };
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary", maxLength: 60 }),
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.constantFrom("", " ", "\u0000", "\u202e8944", "８９４４", "89\t44", "null", "NaN", "89441000000000000018\u0000", "-".repeat(300)),
    fc.string({ unit: fc.constantFrom(..."0123456789 -.Ff"), maxLength: 30 }).map((d) => `89${d}`),
  );
  const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.constant(null), text.map((s) => ({ iccid: s })), fc.constant([]));
  // Weighted towards valid credentials, so that most requests get past auth to the body and query checks.
  const bearer = fc.oneof(
    fc.constant<Record<string, string>>({}),
    { arbitrary: fc.constant({ authorization: `Bearer ${key()}` }), weight: 6 },
    fc.constant({ authorization: `Bearer ${formatApiKey("Z".repeat(22))}` }),
    fc.string({ maxLength: 80 }).filter((s) => /^[\x21-\x7e ]*$/.test(s)).map((s) => ({ authorization: `Bearer ${s}` })),
    fc.constantFrom({ authorization: "Basic Zm9vOmJhcg==" }, { authorization: "Bearer" }, { authorization: `bearer  ${key()}  ` }, { authorization: "Bearer iccid_" + "a".repeat(500) }),
  );
  type Body = { body: string; headers: Record<string, string>; expect?: readonly string[] };
  const body: fc.Arbitrary<Body> = fc.oneof(
    anyJson.map((v) => ({ body: JSON.stringify(v), headers: json })),
    anyJson.map((v) => ({ body: JSON.stringify(v).slice(0, -1) || "{", headers: json, expect: ["malformed_json", "invalid_input"] })),
    fc.constantFrom("{", "[1,", "{\"iccid\":}", "\u0000", "{\"iccid\":\"8944\"}}", "NaN", "'x'").map((b) => ({ body: b, headers: json, expect: ["malformed_json"] })),
    anyJson.map((v) => ({ body: JSON.stringify(v), headers: { "content-type": "text/plain" }, expect: ["unsupported_media_type"] })),
    anyJson.map((v) => ({ body: JSON.stringify(v), headers: {} as Record<string, string>, expect: ["unsupported_media_type"] })),
    fc.constantFrom("application/xml", "x/y;;;", "application/json-patch+json", "multipart/form-data; boundary=x").map((t) => ({ body: "{}", headers: { "content-type": t }, expect: ["unsupported_media_type"] })),
    fc.integer({ min: 2, max: 3 }).map((n) => ({ body: JSON.stringify({ iccids: Array(n * 130_000).fill(1) }).slice(0, 300_000), headers: json, expect: ["payload_too_large"] })),
    fc.integer({ min: 100, max: 5000 }).map((depth) => ({ body: "[".repeat(depth) + "]".repeat(depth), headers: json, expect: ["invalid_input", "payload_too_large"] })),
    fc.integer({ min: 100, max: 4000 }).map((depth) => ({ body: '{"iccid":'.repeat(depth) + '"x"' + "}".repeat(depth), headers: json, expect: ["invalid_input"] })),
    fc.constant({ body: JSON.stringify({ iccids: Array(1001).fill("89441000000000000018") }), headers: json, expect: ["invalid_input"] }),
    fc.array(fc.oneof(text, fc.constant(null), fc.integer()), { maxLength: 30 }).map((items) => ({ body: JSON.stringify({ iccids: items }), headers: json })),
    fc.string({ maxLength: 20 }).map((s) => ({ body: JSON.stringify({ iccid: s.repeat(30) }), headers: json })),
  );
  const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
    fc.constant<Record<string, string>>({}),
    fc.string({ maxLength: 200 }).filter((s) => /^[\x20-\x7e]*$/.test(s)).map((s) => ({ "x-request-id": s })),
    fc.constantFrom<Record<string, string>>({ "x-request-id": "a".repeat(129) }, { "sec-fetch-site": "cross-site" }, { origin: "https://evil.test" }, { origin: "null" }, { "x-forwarded-proto": "https" }, { "accept": "text/html" }),
  );
  const cookies = fc.oneof(
    fc.constant<Record<string, string>>({}),
    { arbitrary: fc.constant({ cookie }), weight: 4 },
    fc.string({ maxLength: 100 }).filter((s) => /^[\x21-\x7e]*$/.test(s) && !s.includes(";")).map((s) => ({ cookie: `iccid_session=${s}` })),
    fc.constantFrom({ cookie: "iccid_session=" }, { cookie: "iccid_session=a; iccid_session=b" }, { cookie: "=;;=" }),
  );
  const keyId = fc.oneof(
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    fc.constantFrom("..", "%2e%2e", "..%2f..%2fsession", "%00", "key_%ff", "a".repeat(3000), "key_x/extra", "%", "key_%E2%80%AE"),
  );
  const route: fc.Arbitrary<[string, string]> = fc.oneof(
    fc.constantFrom<[string, string]>(
      ["POST", "/api/v1/iccid/lookup"],
      ["POST", "/api/v1/iccid/batch"],
      ["POST", "/api/v1/session"],
      ["POST", "/api/v1/keys"],
      ["GET", "/api/v1/usage"],
      ["GET", "/api/v1/session"],
      ["DELETE", "/api/v1/session"],
      ["GET", "/api/v1/keys"],
      ["GET", "/healthz"],
      ["GET", "/api/v1/openapi.json"],
      ["GET", "/docs/errors"],
      ["PUT", "/api/v1/iccid/lookup"],
      ["PATCH", "/api/v1/keys"],
      ["GET", "/api/v1/iccid"],
      ["GET", "/api/v2/usage"],
    ),
    keyId.map((id): [string, string] => ["DELETE", `/api/v1/keys/${id}`]),
    fc.string({ maxLength: 40 }).map((q): [string, string] => ["GET", `/api/v1/usage?${encodeURIComponent(q)}=${encodeURIComponent(q)}&from=${encodeURIComponent(q)}`]),
    fc.constantFrom("/api/v1/../v1/usage", "//api//v1//usage", "/api/v1/usage/", "/API/V1/USAGE", "/api/v1/keys/%2F", "/%00").map((p): [string, string] => ["GET", p]),
  );
  return fc.record({ route, body, bearer, cookies, oddHeaders }).map(({ route: [method, path], body, bearer, cookies, oddHeaders }) => {
    const c: Case = { method, path, headers: { ...body.headers, ...bearer, ...cookies, ...oddHeaders } };
    // Signing out would end the shared session for every later case: that path is tested elsewhere.
    if (method === "DELETE" && path === "/api/v1/session" && c.headers.cookie === cookie) c.headers.cookie = "iccid_session=other";
    if (method !== "GET" && method !== "DELETE") {
      c.body = body.body;
      if (body.expect) c.expect = body.expect;
    }
    return c;
  });
}

describe("fuzzing every endpoint", () => {
  it(`answers ${REQUESTS} generated requests with documented codes, no 5xx, no leaks`, async () => {
    const generated = fc.sample(cases(), { seed: SEED, numRuns: REQUESTS });
    const violations: string[] = [];
    const statuses = new Map<number, number>();
    const secrets = [server.owner.apiKey, password, cookie.split("=")[1]!];
    await pool(generated, 16, async (c, i) => {
      const a = await send(server.url, c.method, c.path, c.headers, c.body);
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      const broken = problemViolation(a);
      if (broken) violations.push(`#${i} ${c.method} ${c.path.slice(0, 60)}: ${broken}`);
      // An authentication failure outranks a body problem; otherwise the expected code must be the answer.
      if (c.expect && a.status >= 400 && a.status !== 401 && a.status !== 403 && a.status !== 404 && a.status !== 405 && !c.expect.includes(a.body?.code)) {
        violations.push(`#${i} ${c.method} ${c.path.slice(0, 60)}: expected ${c.expect.join("|")}, got ${a.body?.code}`);
      }
      if (LEAK.test(a.text)) violations.push(`#${i}: answer leaks: ${a.text.slice(0, 200)}`);
      for (const secret of secrets) if (a.text.includes(secret)) violations.push(`#${i}: answer carries a secret`);
    });
    const summary = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(" ");
    console.log(`fuzz: ${generated.length} requests (seed ${SEED}); statuses ${summary}; 5xx seen: ${[...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0)}`);
    expect(violations.slice(0, 20)).toEqual([]);
    expect(generated.length).toBeGreaterThanOrEqual(10_000);
    // Every documented 4xx code the fuzzer can reach came up at least once.
    const seen = new Set([...statuses.keys()]);
    for (const status of [401, 403, 404, 405, 413, 415, 422]) expect(seen.has(status), `status ${status}`).toBe(true);

    // Still up, and the log holds no secret, stack or SQL.
    expect((await send(server.url, "GET", "/healthz")).status).toBe(200);
    const log = logLines.join("");
    expect(log.length).toBeGreaterThan(1000);
    for (const secret of secrets) expect(log.includes(secret)).toBe(false);
    expect(LEAK.test(log)).toBe(false);
  });
});
