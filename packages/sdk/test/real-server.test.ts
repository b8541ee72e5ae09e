import { formatApiKey, isWellFormedApiKey } from "@iccid/core";
import { startTestServer, type TestAccount, type TestServer } from "@iccid/server/testing";
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  AuthenticationError,
  IccidClient,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitError,
  SubscriptionRequiredError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
  isPermissionDeniedError,
  type APIError,
  type ClientOptions,
} from "../src/index.js";
import { iccidFor } from "./iccids.js";

// Every SDK method and every problem code of API.md against the real server (SQLite in a temp dir).
// Codes the SDK itself never provokes (no key, a foreign Origin, a non-JSON body) are sent through the
// client's own pipeline with an undici interceptor that changes the request on its way out.

let server: TestServer;
const clients: IccidClient[] = [];
const agents: Dispatcher[] = [];

function client(options: ClientOptions = {}): IccidClient {
  const c = new IccidClient({ baseUrl: server.url, apiKey: server.owner.apiKey, retryDelays: { initialMs: 5, maxMs: 20 }, ...options });
  clients.push(c);
  return c;
}

/** A client whose requests are rewritten by `change` before they leave (to play a browser or a broken proxy). */
function rewritingClient(account: TestAccount, change: (opts: Dispatcher.DispatchOptions) => Dispatcher.DispatchOptions) {
  const agent = new Agent().compose((dispatch) => (opts, handler) => dispatch(change(opts), handler));
  agents.push(agent);
  return client({ apiKey: account.apiKey, dispatcher: agent });
}

async function failure(promise: Promise<unknown>): Promise<APIError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected the call to fail");
  return error as APIError;
}

function expectProblem(error: APIError, cls: new (...args: never[]) => APIError, status: number, code: string) {
  expect(error).toBeInstanceOf(cls);
  expect(error.status).toBe(status);
  expect(error.code).toBe(code);
  expect(error.requestId).toMatch(/\S/);
  expect(error.headers["x-request-id"]).toBe(error.requestId);
  expect(error.detail).toMatch(/\S/);
}

beforeAll(async () => {
  server = await startTestServer();
}, 30_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(agents.map((a) => a.close()));
  await server.close();
});

describe("iccid", () => {
  it("looks up one ICCID as written", async () => {
    const result = await client().iccid.lookup("8944 1000 0000 0000 0018");
    expect(result).toMatchObject({
      iccid: "89441000000000000018",
      input: "8944 1000 0000 0000 0018",
      valid: true,
      length: 20,
      checks: { format: true, luhn: "valid" },
      check_digit: "8",
      mii: "89",
      calling_code: "44",
      country: { iso2: "GB", name: "United Kingdom" },
    });
  });

  it("answers a wrong check digit with valid: false, not an error", async () => {
    const result = await client().iccid.lookup("89441000000000000017");
    expect(result.valid).toBe(false);
    expect(result.checks.luhn).toBe("invalid");
  });

  it("maps a grammar failure to UnprocessableEntityError 422 invalid_input pointing at /iccid", async () => {
    const error = (await failure(client().iccid.lookup("12AB"))) as UnprocessableEntityError;
    expectProblem(error, UnprocessableEntityError, 422, "invalid_input");
    expect(error.errors[0]?.pointer).toBe("/iccid");
  });

  it("batches, reporting bad items in place", async () => {
    const answer = await client().iccid.batch(["89441000000000000018", "12AB", "89441000000000000018"]);
    expect(answer.results.map((r) => [r.index, r.ok])).toEqual([
      [0, true],
      [1, false],
      [2, true],
    ]);
    expect(answer.results[1]).toMatchObject({ ok: false, input: "12AB", error: { code: "invalid_mii" } });
    expect(answer.summary).toMatchObject({ total: 3, ok: 2, failed: 1, unique: 2 });
  });

  it("maps a structural batch failure to 422 with its pointer", async () => {
    const empty = (await failure(client().iccid.batch([]))) as UnprocessableEntityError;
    expectProblem(empty, UnprocessableEntityError, 422, "invalid_input");
    expect(empty.errors[0]?.pointer).toBe("/iccids");
    const tooMany = (await failure(client().iccid.batch(Array.from({ length: 1001 }, (_, i) => iccidFor(i))))) as UnprocessableEntityError;
    expectProblem(tooMany, UnprocessableEntityError, 422, "invalid_input");
  });

  it("streams 25,000 ICCIDs through batchAll in order, malformed ones answered offline", { timeout: 30_000 }, async () => {
    const account = await server.createAccount();
    const c = client({ apiKey: account.apiKey });
    const total = 25_000;
    const itemAt = (i: number) => (i % 1000 === 7 ? "not an iccid" : iccidFor(i));
    let next = 0;
    let ok = 0;
    for await (const item of c.iccid.batchAll((function* () {
      for (let i = 0; i < total; i++) yield itemAt(i);
    })(), { concurrency: 4 })) {
      expect(item.index).toBe(next);
      if (item.ok) {
        expect(item.result.iccid).toBe(itemAt(next));
        ok++;
      } else {
        expect(item.input).toBe("not an iccid");
      }
      next++;
    }
    expect(next).toBe(total);
    expect(ok).toBe(total - 25);
    const usage = await c.usage.get();
    expect(usage.totals).toEqual({ requests: 25, lookups: total - 25 });
  });
});

describe("usage", () => {
  it("reports quota, rate limit and metered usage, grouped by key, without spending quota", async () => {
    const account = await server.createAccount();
    const c = client({ apiKey: account.apiKey });
    await c.iccid.lookup("89441000000000000018");
    await c.iccid.batch(["89441000000000000018", iccidFor(2), "bad"]); // iccidFor(1) is the same number
    const usage = await c.usage.get({ granularity: "day", group_by: "api_key" });
    expect(usage.subscription).toMatchObject({ status: "active", plan: "standard" });
    expect(usage.totals).toEqual({ requests: 2, lookups: 3 });
    expect(usage.quota).toMatchObject({ limit: 100_000, used: 3, remaining: 99_997 });
    expect(usage.rate_limit).toEqual({ limit: 600, window_seconds: 60 });
    expect(usage.by_key).toEqual([expect.objectContaining({ key_id: account.keyId, requests: 2, lookups: 3 })]);
    const again = await c.usage.get();
    expect(again.quota.used).toBe(3);
  });

  it("takes a date range", async () => {
    const usage = await client().usage.get({ from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 86_400_000), granularity: "hour" });
    expect(usage.series.length).toBeGreaterThan(0);
  });

  it("maps a bad query to 422", async () => {
    const error = await failure(client().usage.get({ from: "yesterday" }));
    expectProblem(error, UnprocessableEntityError, 422, "invalid_input");
  });
});

describe("session and keys", () => {
  it("logs in, manages keys, and logs out", async () => {
    const account = await server.createAccount();
    const c = client({ apiKey: undefined });
    const session = await c.session.login(account.email, account.password);
    expect(session.account).toEqual({ id: account.id, email: account.email });
    expect(c.session.token).toMatch(/\S/);
    await expect(c.session.current()).resolves.toMatchObject({ account: { id: account.id } });

    const listed = await c.keys.list();
    expect(listed.data.map((k) => k.id)).toEqual([account.keyId]);

    const created = await c.keys.create({ name: "ci" });
    expect(created).toMatchObject({ name: "ci", revoked_at: null, last_used_at: null });
    expect(isWellFormedApiKey(created.key)).toBe(true);
    expect(created.key.endsWith(created.last4)).toBe(true);
    const withNewKey = client({ apiKey: created.key });
    await expect(withNewKey.iccid.lookup("89441000000000000018")).resolves.toMatchObject({ valid: true });
    expect((await c.keys.list()).data.find((k) => k.id === created.id)?.last_used_at).not.toBeNull();

    await c.keys.revoke(created.id);
    await c.keys.revoke(created.id); // again: still 204
    expect((await c.keys.list()).data.find((k) => k.id === created.id)?.revoked_at).not.toBeNull();
    const revoked = await failure(withNewKey.iccid.lookup("89441000000000000018"));
    expectProblem(revoked, AuthenticationError, 401, "revoked_api_key");

    const unnamed = await c.keys.create();
    expect(unnamed.name).toBeNull();

    await c.session.logout();
    expect(c.session.token).toBeUndefined();
    expectProblem(await failure(c.session.current()), AuthenticationError, 401, "not_authenticated");
  });

  it("resumes a session in a new client from the saved token", async () => {
    const account = await server.createAccount();
    const first = client({ apiKey: undefined });
    await first.session.login(account.email, account.password);
    const second = client({ apiKey: undefined, sessionToken: first.session.token });
    await expect(second.keys.list()).resolves.toMatchObject({ data: [expect.objectContaining({ id: account.keyId })] });
  });

  it("maps a failed login to AuthenticationError invalid_credentials", async () => {
    const error = await failure(client().session.login(server.owner.email, "wrong password"));
    expectProblem(error, AuthenticationError, 401, "invalid_credentials");
  });

  it("maps an unknown key id, another account's key, and a path-like id to NotFoundError", async () => {
    const other = await server.createAccount();
    const c = client();
    await c.session.login(server.owner.email, server.owner.password);
    expectProblem(await failure(c.keys.revoke("key_doesnotexist")), NotFoundError, 404, "not_found");
    expectProblem(await failure(c.keys.revoke(other.keyId)), NotFoundError, 404, "not_found");
    expectProblem(await failure(c.keys.revoke("../session")), NotFoundError, 404, "not_found");
    await expect(c.session.current()).resolves.toBeDefined(); // the encoded id did not reach DELETE /session
  });

  it("maps a key call without a session to AuthenticationError not_authenticated", async () => {
    expectProblem(await failure(client().keys.list()), AuthenticationError, 401, "not_authenticated");
  });

  it("maps a cross-site session request to PermissionDeniedError csrf_rejected", async () => {
    const c = rewritingClient(server.owner, (opts) => ({
      ...opts,
      headers: { ...(opts.headers as Record<string, string>), origin: "https://evil.example" },
    }));
    const error = await failure(c.session.login(server.owner.email, server.owner.password));
    expectProblem(error, PermissionDeniedError, 403, "csrf_rejected");
  });
});

describe("authentication and subscription", () => {
  it("maps a well-formed but unknown key to AuthenticationError invalid_api_key", async () => {
    const error = await failure(client({ apiKey: formatApiKey("Z".repeat(22)) }).iccid.lookup("89441000000000000018"));
    expectProblem(error, AuthenticationError, 401, "invalid_api_key");
    expect(error.headers["www-authenticate"]).toMatch(/^Bearer/);
  });

  it("maps a request without a key to AuthenticationError missing_api_key", async () => {
    // The SDK refuses to send without a key, so this goes through its pipeline with auth switched off.
    const c = client();
    const error = await failure(
      c.call({ method: "POST", path: "/iccid/lookup", auth: "none", body: { iccid: "89441000000000000018" }, schema: null }),
    );
    expectProblem(error, AuthenticationError, 401, "missing_api_key");
  });

  it("maps an inactive subscription to SubscriptionRequiredError no_active_subscription", async () => {
    const account = await server.createAccount({ status: "past_due" });
    const c = client({ apiKey: account.apiKey });
    const error = await failure(c.iccid.lookup("89441000000000000018"));
    expectProblem(error, SubscriptionRequiredError, 403, "no_active_subscription");
    expect(isPermissionDeniedError(error)).toBe(true);
    await server.setSubscription(account.email, "active");
    await expect(c.iccid.lookup("89441000000000000018")).resolves.toBeDefined();
  });
});

describe("protocol errors", () => {
  it("maps an unknown route to NotFoundError and a wrong method to MethodNotAllowedError", async () => {
    const c = client();
    expectProblem(await failure(c.call({ method: "GET", path: "/nothing-here", auth: "api_key", schema: null })), NotFoundError, 404, "not_found");
    const error = await failure(c.call({ method: "GET", path: "/iccid/lookup", auth: "api_key", schema: null }));
    expectProblem(error, MethodNotAllowedError, 405, "method_not_allowed");
    expect(error.headers.allow).toContain("POST");
  });

  it("maps a body over the limit to PayloadTooLargeError", async () => {
    const error = await failure(client().iccid.lookup("8".repeat(300_000)));
    expectProblem(error, PayloadTooLargeError, 413, "payload_too_large");
  });

  it("maps a non-JSON body to UnsupportedMediaTypeError", async () => {
    const c = rewritingClient(server.owner, (opts) => ({
      ...opts,
      headers: { ...(opts.headers as Record<string, string>), "content-type": "text/plain" },
    }));
    expectProblem(await failure(c.iccid.lookup("89441000000000000018")), UnsupportedMediaTypeError, 415, "unsupported_media_type");
  });

  it("maps unparsable JSON to UnprocessableEntityError malformed_json", async () => {
    const c = rewritingClient(server.owner, (opts) => ({ ...opts, body: "{not json" }));
    expectProblem(await failure(c.iccid.lookup("89441000000000000018")), UnprocessableEntityError, 422, "malformed_json");
  });
});

describe("rate limit and quota", () => {
  it("maps the rate limit to RateLimitError with Retry-After and the RateLimit fields", async () => {
    await server.setPlan("tiny-rate", { rate_limit: 2, window_seconds: 60, monthly_lookups: 1000 });
    const account = await server.createAccount({ plan: "tiny-rate" });
    // The server asks to wait up to a minute; a 10 ms cap makes the SDK throw at once instead of waiting.
    const c = client({ apiKey: account.apiKey, retryDelays: { maxRetryAfterMs: 10 } });
    await c.iccid.lookup("89441000000000000018");
    await c.iccid.lookup("89441000000000000018");
    const error = (await failure(c.iccid.lookup("89441000000000000018"))) as RateLimitError;
    expectProblem(error, RateLimitError, 429, "rate_limited");
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(error.rateLimit).toMatchObject({ limit: 2, windowSeconds: 60, remaining: 0 });
    // Usage still answers while rate limited: it spends nothing.
    await expect(c.usage.get()).resolves.toMatchObject({ totals: { requests: 2 } });
  });

  it("maps a used-up quota to QuotaExceededError with resetsAt, charging nothing", async () => {
    await server.setPlan("tiny-quota", { rate_limit: 600, window_seconds: 60, monthly_lookups: 3 });
    const account = await server.createAccount({ plan: "tiny-quota" });
    const c = client({ apiKey: account.apiKey });
    const error = (await failure(c.iccid.batch([iccidFor(1), iccidFor(2), iccidFor(3), iccidFor(4)]))) as QuotaExceededError;
    expectProblem(error, QuotaExceededError, 429, "quota_exceeded");
    expect(error.resetsAt).toBeInstanceOf(Date);
    expect(error.resetsAt!.getTime()).toBeGreaterThan(Date.now());
    const usage = await c.usage.get();
    expect(usage.quota.used).toBe(0);
    expect(usage.quota.resets_at).toBe(error.resetsAt!.toISOString().replace(".000Z", "Z"));
  });
});

describe("server faults", () => {
  it("maps an internal failure to InternalServerError internal_error, and a stopped server to APIConnectionError", async () => {
    const broken = await startTestServer();
    const c = new IccidClient({ baseUrl: broken.url, apiKey: broken.owner.apiKey, maxRetries: 1, retryDelays: { initialMs: 1, maxMs: 1 } });
    try {
      await c.iccid.lookup("89441000000000000018");
      await broken.store.close(); // every query now throws inside the server
      const error = await failure(c.iccid.lookup("89441000000000000018"));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error.status).toBeGreaterThanOrEqual(500);
      expect(["internal_error", "unavailable"]).toContain(error.code);
      expect(JSON.stringify(error.body)).not.toMatch(/sqlite|SELECT|at .*\.ts/i);
    } finally {
      await broken.close().catch(() => undefined);
    }
    const gone = await failure(c.iccid.lookup("89441000000000000018"));
    expect(gone).toBeInstanceOf(APIConnectionError);
    expect(gone.message).toContain(new URL(broken.url).host);
    await c.close();
  });
});
