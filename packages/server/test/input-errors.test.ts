import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { call, sessionCookie } from "./http.js";

// 422 invalid_input in the API's own words: every errors[] entry names its field by JSON Pointer and says
// the rule it broke; the problem's detail names the first field and its rule. Never zod's own wording.

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer();
  cookie = sessionCookie(await call(server.url, "POST", "/api/v1/session", { body: { email: server.owner.email, password: server.owner.password } }));
});
afterAll(async () => server?.close());

const lookup = (body: unknown) => call(server.url, "POST", "/api/v1/iccid/lookup", { key: server.owner.apiKey, body });
const batch = (body: unknown) => call(server.url, "POST", "/api/v1/iccid/batch", { key: server.owner.apiKey, body });
const createKey = (body: unknown) => call(server.url, "POST", "/api/v1/keys", { cookie, body });
const usage = (query: string) => call(server.url, "GET", `/api/v1/usage?${query}`, { key: server.owner.apiKey });

/** The 422's detail and its errors[] as pointer → detail pairs, after checking the problem's shape. */
function refusal(r: { status: number; body: any }) {
  expect(r.status).toBe(422);
  expect(r.body).toMatchObject({ type: "/docs/errors#invalid_input", title: "Invalid input", status: 422, code: "invalid_input" });
  expect(r.body.request_id).toMatch(/^req_/);
  for (const e of r.body.errors) expect(Object.keys(e).sort()).toEqual(["code", "detail", "pointer"]);
  return { detail: r.body.detail as string, errors: (r.body.errors as Array<{ pointer: string; detail: string }>).map((e) => [e.pointer, e.detail]) };
}

describe("422 invalid_input in the API's words", () => {
  it("names a missing field, a field of the wrong type and an unknown field", async () => {
    expect(refusal(await lookup({}))).toEqual({ detail: "iccid: is required", errors: [["/iccid", "is required"]] });
    expect(refusal(await lookup({ iccid: 8944100 }))).toEqual({
      detail: "iccid: must be a string, not a number",
      errors: [["/iccid", "must be a string, not a number"]],
    });
    const extra = refusal(await lookup({ iccid: "89441000000000000018", icc: "x", other: 1 }));
    expect(extra).toEqual({ detail: "icc: is not a known field", errors: [["/icc", "is not a known field"], ["/other", "is not a known field"]] });
    expect(refusal(await lookup(["89441000000000000018"]))).toEqual({
      detail: "the body: must be an object, not an array",
      errors: [["", "must be an object, not an array"]],
    });
  });

  it("says the size rule of a string and of a list", async () => {
    expect(refusal(await lookup({ iccid: "8".repeat(300) })).errors).toEqual([["/iccid", "must be at most 256 characters"]]);
    expect(refusal(await batch({ iccids: [] }))).toEqual({ detail: "iccids: must hold 1 to 1000 items", errors: [["/iccids", "must hold 1 to 1000 items"]] });
    expect(refusal(await batch({ iccids: ["89441000000000000018", 7, null] })).errors).toEqual([
      ["/iccids/1", "must be a string or an object, not a number"],
      ["/iccids/2", "must be a string or an object, not null"],
    ]);
    expect(refusal(await createKey({ name: "   " }))).toEqual({ detail: "name: must not be empty", errors: [["/name", "must not be empty"]] });
    expect(refusal(await createKey({ name: "k".repeat(101) })).errors).toEqual([["/name", "must be at most 100 characters"]]);
  });

  it("lists the allowed values of a query parameter and the form of a date", async () => {
    expect(refusal(await usage("granularity=week"))).toEqual({
      detail: 'granularity: must be one of "hour", "day", "month"',
      errors: [["/granularity", 'must be one of "hour", "day", "month"']],
    });
    expect(refusal(await usage("from=yesterday")).errors).toEqual([["/from", "must be a date (2026-11-01) or an RFC 3339 timestamp"]]);
    expect(refusal(await usage("group_by=plan")).errors).toEqual([["/group_by", 'must be "api_key"']]);
  });

  it("never answers in zod's own words", async () => {
    const answers = await Promise.all([lookup({}), lookup({ iccid: 1 }), batch({ iccids: [] }), createKey({ name: "" }), usage("granularity=x"), lookup({ x: 1 })]);
    for (const r of answers) {
      expect(r.status).toBe(422);
      const words = JSON.stringify([r.body.detail, r.body.errors]);
      expect(words).not.toMatch(/Invalid input|Invalid option|Too (small|big)|expected string|received|Unrecognized key|>=|<=/);
    }
  });
});
