import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiKeyError,
  AuthenticationError,
  IccidClient,
  ResponseValidationError,
  SDK_VERSION,
  isApiKeyError,
  isAuthenticationError,
} from "../src/index.js";
import { JSON_HEADERS, KEY, ORIGIN, lookupResult, mockApi } from "./mock-api.js";

const ICCID = "89441000000000000018";
const LOOKUP = { path: "/api/v1/iccid/lookup", method: "POST" };
const SESSION = { account: { id: "acc_1", email: "a@example.test" }, created_at: "2026-11-21T04:00:00Z", expires_at: "2026-11-22T04:00:00Z" };
let api: ReturnType<typeof mockApi> | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  await api?.agent.close();
  api = undefined;
});

describe("configuration", () => {
  it("reads ICCID_API_KEY and ICCID_BASE_URL when options are absent, and sends key, user agent and JSON", async () => {
    vi.stubEnv("ICCID_API_KEY", KEY);
    vi.stubEnv("ICCID_BASE_URL", `${ORIGIN}/api/v1/`);
    api = mockApi({ apiKey: undefined, baseUrl: undefined });
    let seen: Record<string, string> = {};
    let body = "";
    api.pool.intercept(LOOKUP).reply((req) => {
      seen = req.headers as Record<string, string>;
      body = String(req.body);
      return { statusCode: 200, data: lookupResult(ICCID), responseOptions: { headers: JSON_HEADERS } };
    });
    expect(api.client.baseUrl).toBe(ORIGIN);
    await api.client.iccid.lookup(ICCID);
    expect(seen.authorization).toBe(`Bearer ${KEY}`);
    expect(seen["user-agent"]).toBe(`iccid-sdk-node/${SDK_VERSION} node/${process.version}`);
    expect(seen["content-type"]).toBe("application/json");
    expect(JSON.parse(body)).toEqual({ iccid: ICCID });
  });

  it("defaults to http://127.0.0.1:8080 and rejects a base URL that is not http(s)", () => {
    vi.stubEnv("ICCID_BASE_URL", "");
    const client = new IccidClient({ apiKey: KEY });
    expect(client.baseUrl).toBe("http://127.0.0.1:8080");
    void client.close();
    expect(() => new IccidClient({ baseUrl: "ftp://x" })).toThrow(/http or https/);
    expect(() => new IccidClient({ baseUrl: "not a url" })).toThrow(/absolute http\(s\) URL/);
  });

  it("refuses a missing API key before any request", async () => {
    vi.stubEnv("ICCID_API_KEY", "");
    api = mockApi({ apiKey: undefined }); // no interceptors, no network: a request would fail differently
    const error = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as ApiKeyError;
    expect(error).toBeInstanceOf(ApiKeyError);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error.code).toBe("missing_api_key");
    expect(error.status).toBe(401);
    expect(error.requestId).toBeUndefined();
    expect(error.message).toContain("ICCID_API_KEY");
  });

  it("refuses a mistyped API key offline (checksum), without leaking it into the message", async () => {
    const typo = KEY.slice(0, 10) + (KEY[10] === "B" ? "C" : "B") + KEY.slice(11);
    api = mockApi({ apiKey: typo });
    const error = await api.client.usage.get().catch((e: unknown) => e);
    expect(isApiKeyError(error)).toBe(true);
    expect((error as ApiKeyError).code).toBe("invalid_api_key");
    expect((error as ApiKeyError).message).not.toContain(typo);
  });
});

describe("session cookie", () => {
  it("keeps the cookie from login, sends it on session calls only, and forgets it on logout", async () => {
    api = mockApi();
    const cookies: (string | undefined)[] = [];
    const record = (req: { headers?: unknown }) => cookies.push((req.headers as Record<string, string>).cookie);
    api.pool.intercept({ path: "/api/v1/session", method: "POST" }).reply(201, SESSION, {
      headers: { ...JSON_HEADERS, "set-cookie": "iccid_session=s3cr3t; Path=/; HttpOnly; SameSite=Lax" },
    });
    api.pool.intercept({ path: "/api/v1/session", method: "GET" }).reply((req) => {
      record(req);
      return { statusCode: 200, data: SESSION, responseOptions: { headers: JSON_HEADERS } };
    });
    api.pool.intercept({ path: "/api/v1/iccid/lookup", method: "POST" }).reply((req) => {
      record(req);
      return { statusCode: 200, data: lookupResult(ICCID), responseOptions: { headers: JSON_HEADERS } };
    });
    api.pool.intercept({ path: "/api/v1/session", method: "DELETE" }).reply((req) => {
      record(req);
      return { statusCode: 204, data: "", responseOptions: { headers: { "set-cookie": "iccid_session=; Path=/; Max-Age=0" } } };
    });

    await expect(api.client.session.login("a@example.test", "pw")).resolves.toEqual(SESSION);
    expect(api.client.session.token).toBe("s3cr3t");
    await api.client.session.current();
    await api.client.iccid.lookup(ICCID);
    await api.client.session.logout();
    expect(cookies).toEqual(["iccid_session=s3cr3t", undefined, "iccid_session=s3cr3t"]);
    expect(api.client.session.token).toBeUndefined();
  });

  it("resumes a saved session from sessionToken", async () => {
    api = mockApi({ sessionToken: "saved" });
    let cookie: string | undefined;
    api.pool.intercept({ path: "/api/v1/keys", method: "GET" }).reply((req) => {
      cookie = (req.headers as Record<string, string>).cookie;
      return { statusCode: 200, data: { data: [] }, responseOptions: { headers: JSON_HEADERS } };
    });
    await expect(api.client.keys.list()).resolves.toEqual({ data: [] });
    expect(cookie).toBe("iccid_session=saved");
  });
});

describe("paths and answers", () => {
  it("path-encodes key ids, dots included", async () => {
    api = mockApi();
    const paths: string[] = [];
    api.pool
      .intercept({ path: (p) => p.startsWith("/api/v1/keys/"), method: "DELETE" })
      .reply((req) => {
        paths.push(req.path);
        return { statusCode: 204, data: "" };
      })
      .persist();
    await api.client.keys.revoke("key_abc");
    await api.client.keys.revoke("a/b?c#d");
    await api.client.keys.revoke("%2e%2e"); // a literal percent is encoded, so this is no path step
    expect(paths).toEqual(["/api/v1/keys/key_abc", "/api/v1/keys/a%2Fb%3Fc%23d", "/api/v1/keys/%252e%252e"]);
    // URL parsers treat "." and ".." as path steps even when encoded: such an id is refused locally.
    for (const id of ["", ".", ".."]) await expect(api.client.keys.revoke(id)).rejects.toThrow(TypeError);
  });

  it("sends usage parameters as a query, Dates as RFC 3339", async () => {
    api = mockApi();
    let path = "";
    api.pool.intercept({ path: (p) => p.startsWith("/api/v1/usage"), method: "GET" }).reply((req) => {
      path = req.path;
      return { statusCode: 200, data: {}, responseOptions: { headers: JSON_HEADERS } };
    });
    await api.client.usage
      .get({ from: new Date("2026-11-01T00:00:00Z"), to: "2026-12-01", granularity: "hour", group_by: "api_key" })
      .catch(() => undefined); // the empty body is off-contract; only the query matters here
    expect(path).toBe("/api/v1/usage?from=2026-11-01T00%3A00%3A00.000Z&to=2026-12-01&granularity=hour&group_by=api_key");
  });

  it("turns an off-contract 200 into a ResponseValidationError naming the fields", async () => {
    api = mockApi();
    const checks = { ...lookupResult(ICCID).checks, luhn: "maybe" };
    api.pool.intercept(LOOKUP).reply(200, { ...lookupResult(ICCID), checks, length: "20" }, { headers: JSON_HEADERS });
    const error = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.requestId).toBe("req_mock");
    expect(error.issues.map((i) => i.path).sort()).toEqual(["checks.luhn", "length"]);
    expect(error.message).toContain("POST /api/v1/iccid/lookup");
  });

  it("turns a non-JSON 200 into a ResponseValidationError", async () => {
    api = mockApi();
    api.pool.intercept(LOOKUP).reply(200, "<html>proxy</html>", { headers: { "content-type": "text/html" } });
    const error = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain("not JSON (content-type text/html)");
  });

  it("maps a non-problem error body by status (a proxy's 401 page)", async () => {
    api = mockApi();
    api.pool.intercept(LOOKUP).reply(401, "<html>login</html>", { headers: { "content-type": "text/html" } });
    const error = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBeUndefined();
    expect(error.body).toBe("<html>login</html>");
  });
});

describe("connection errors against a real socket", () => {
  it("says connection refused and asks whether the server runs, naming host and port", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new IccidClient({ apiKey: KEY, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1, retryDelays: { initialMs: 1 } });
    try {
      const error = await client.iccid.lookup(ICCID).catch((e: unknown) => e);
      expect((error as Error).name).toBe("APIConnectionError");
      expect((error as Error).message).toBe(
        `could not reach 127.0.0.1:${port}: connection refused (is the server running, and on this port?) [ECONNREFUSED]`,
      );
    } finally {
      await client.close();
    }
  });
});
