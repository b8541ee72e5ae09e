import { formatApiKey } from "@iccid/core";
import { startTestServer } from "@iccid/server/testing";
import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  AuthenticationError,
  IccidClient,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  QuotaExceededError,
  RateLimitError,
  SubscriptionRequiredError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
  isPermissionDeniedError,
} from "../src/index.js";
import { iccidFor } from "./iccids.js";
import { expectProblem, failure, useRealServer } from "./real-server.js";

// The problem codes of docs/api.md that are not part of a method's own flow, against the real server. Codes the
// SDK itself never provokes (no key, a non-JSON body, unparsable JSON) are sent through the client's own
// pipeline with its auth switched off or an undici interceptor that changes the request on its way out.

const real = useRealServer();
const client = real.client;

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
    const account = await real.server.createAccount({ status: "past_due" });
    const c = client({ apiKey: account.apiKey });
    const error = await failure(c.iccid.lookup("89441000000000000018"));
    expectProblem(error, SubscriptionRequiredError, 403, "no_active_subscription");
    expect(isPermissionDeniedError(error)).toBe(true);
    await real.server.setSubscription(account.email, "active");
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
    const c = real.rewritingClient(real.server.owner, (opts) => ({
      ...opts,
      headers: { ...(opts.headers as Record<string, string>), "content-type": "text/plain" },
    }));
    expectProblem(await failure(c.iccid.lookup("89441000000000000018")), UnsupportedMediaTypeError, 415, "unsupported_media_type");
  });

  it("maps unparsable JSON to UnprocessableEntityError malformed_json", async () => {
    const c = real.rewritingClient(real.server.owner, (opts) => ({ ...opts, body: "{not json" }));
    expectProblem(await failure(c.iccid.lookup("89441000000000000018")), UnprocessableEntityError, 422, "malformed_json");
  });
});

describe("rate limit and quota", () => {
  it("maps the rate limit to RateLimitError with Retry-After and the RateLimit fields", async () => {
    await real.server.setPlan("tiny-rate", { rate_limit: 2, window_seconds: 60, monthly_lookups: 1000 });
    const account = await real.server.createAccount({ plan: "tiny-rate" });
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
    await real.server.setPlan("tiny-quota", { rate_limit: 600, window_seconds: 60, monthly_lookups: 3 });
    const account = await real.server.createAccount({ plan: "tiny-quota" });
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
  it("maps an unreachable store to InternalServerError 503 unavailable, and a stopped server to APIConnectionError", async () => {
    const broken = await startTestServer();
    const c = new IccidClient({ baseUrl: broken.url, apiKey: broken.owner.apiKey, maxRetries: 1, retryDelays: { initialMs: 1, maxMs: 1 } });
    try {
      await c.iccid.lookup("89441000000000000018");
      await broken.store.close(); // the store is gone: docs/api.md says 503 `unavailable`
      const error = await failure(c.iccid.lookup("89441000000000000018"));
      expect(error).toBeInstanceOf(InternalServerError);
      expect([error.status, error.code]).toEqual([503, "unavailable"]);
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
