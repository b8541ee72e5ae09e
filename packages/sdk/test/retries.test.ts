import { afterEach, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  InternalServerError,
  QuotaExceededError,
  RateLimitError,
  UnprocessableEntityError,
  isAPIConnectionError,
} from "../src/index.js";
import { JSON_HEADERS, PROBLEM_HEADERS, lookupResult, mockApi, problem } from "./mock-api.js";

// What a real server cannot easily be made to do: drop connections, answer 429 then 200, storm 503.
// Every test counts the attempts the mock origin saw.

const ICCID = "89441000000000000018";
const LOOKUP = { path: "/api/v1/iccid/lookup", method: "POST" };
let api: ReturnType<typeof mockApi>;

afterEach(async () => {
  await api.agent.close();
});

describe("retries", () => {
  it("retries a dropped connection and then succeeds (2 attempts)", async () => {
    api = mockApi();
    const seen = { attempts: 0 };
    api.pool
      .intercept(LOOKUP)
      .replyWithError(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));
    api.pool.intercept(LOOKUP).reply(() => {
      seen.attempts++;
      return { statusCode: 200, data: lookupResult(ICCID), responseOptions: { headers: JSON_HEADERS } };
    });
    const result = await api.client.iccid.lookup(ICCID);
    expect(result.iccid).toBe(ICCID);
    expect(seen.attempts).toBe(1); // the one after the dropped attempt
    api.agent.assertNoPendingInterceptors();
  });

  it("gives up after maxRetries dropped connections with an error naming the host and the reason", async () => {
    api = mockApi();
    api.pool
      .intercept(LOOKUP)
      .replyWithError(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }))
      .times(3);
    const error = await api.client.iccid.lookup(ICCID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(isAPIConnectionError(error)).toBe(true);
    const e = error as APIConnectionError;
    expect(e.message).toContain("api.test");
    expect(e.message).toContain("closed before a full answer");
    expect(e.errno).toBe("UND_ERR_SOCKET");
    expect(e.cause).toBeInstanceOf(Error);
    api.agent.assertNoPendingInterceptors(); // exactly 3 attempts: 1 + maxRetries 2
  });

  it("waits out Retry-After on a 429 rate_limited, then succeeds (2 attempts)", async () => {
    api = mockApi();
    const seen = { attempts: 0 };
    api.pool.intercept(LOOKUP).reply(() => {
      seen.attempts++;
      return {
        statusCode: 429,
        data: problem(429, "rate_limited", { retry_after: 1 }),
        responseOptions: {
          headers: {
            ...PROBLEM_HEADERS,
            "retry-after": "1",
            "ratelimit-policy": '"default";q=600;w=60',
            ratelimit: '"default";r=0;t=1',
          },
        },
      };
    });
    api.pool.intercept(LOOKUP).reply(() => {
      seen.attempts++;
      return { statusCode: 200, data: lookupResult(ICCID), responseOptions: { headers: JSON_HEADERS } };
    });
    const started = performance.now();
    await api.client.iccid.lookup(ICCID);
    expect(seen.attempts).toBe(2);
    // A lower bound only: the wait can never be shorter than Retry-After, however slow the machine.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("throws a RateLimitError with the parsed fields once retries run out", async () => {
    api = mockApi({ maxRetries: 1 });
    api.pool
      .intercept(LOOKUP)
      .reply(429, problem(429, "rate_limited", { retry_after: 0 }), {
        headers: { ...PROBLEM_HEADERS, "retry-after": "0", "ratelimit-policy": '"default";q=600;w=60', ratelimit: '"default";r=0;t=7' },
      })
      .times(2);
    const error = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(0);
    expect(error.rateLimit).toEqual({ policy: "default", limit: 600, windowSeconds: 60, remaining: 0, resetSeconds: 7 });
    api.agent.assertNoPendingInterceptors();
  });

  it("does not wait out a Retry-After above the cap: one attempt, the error says how long", async () => {
    api = mockApi({ retryDelays: { maxRetryAfterMs: 10_000 } });
    const seen = { attempts: 0 };
    api.pool
      .intercept(LOOKUP)
      .reply(() => {
        seen.attempts++;
        return { statusCode: 429, data: problem(429, "rate_limited"), responseOptions: { headers: { ...PROBLEM_HEADERS, "retry-after": "120" } } };
      })
      .persist();
    const error = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(120_000);
    expect(seen.attempts).toBe(1);
  });

  it("with retryRateLimited false, fails a 429 at once but still waits out a 503's Retry-After", async () => {
    api = mockApi({ retryRateLimited: false });
    const seen = { attempts: 0 };
    const answer = (statusCode: number, data: object, headers: Record<string, string>) => () => {
      seen.attempts++;
      return { statusCode, data, responseOptions: { headers } };
    };
    // What the server says while restarting: 503 unavailable, Retry-After 1.
    api.pool.intercept(LOOKUP).reply(answer(503, problem(503, "unavailable"), { ...PROBLEM_HEADERS, "retry-after": "1" }));
    api.pool.intercept(LOOKUP).reply(answer(200, lookupResult(ICCID), JSON_HEADERS));
    await expect(api.client.iccid.lookup(ICCID)).resolves.toMatchObject({ iccid: ICCID });
    expect(seen.attempts).toBe(2);

    // A 429 without Retry-After would otherwise be retried after the usual backoff.
    seen.attempts = 0;
    api.pool.intercept(LOOKUP).reply(answer(429, problem(429, "rate_limited"), PROBLEM_HEADERS));
    await expect(api.client.iccid.lookup(ICCID)).rejects.toBeInstanceOf(RateLimitError);
    expect(seen.attempts).toBe(1);
    api.agent.assertNoPendingInterceptors();
  });

  it("never retries quota_exceeded (1 attempt) and reports resetsAt", async () => {
    api = mockApi();
    const seen = { attempts: 0 };
    api.pool
      .intercept(LOOKUP)
      .reply(() => {
        seen.attempts++;
        return {
          statusCode: 429,
          data: problem(429, "quota_exceeded", { retry_after: 3600, resets_at: "2026-12-01T00:00:00Z" }),
          responseOptions: { headers: { ...PROBLEM_HEADERS, "retry-after": "3600" } },
        };
      })
      .persist();
    const error = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as QuotaExceededError;
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.resetsAt?.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(seen.attempts).toBe(1);
  });

  it("retries a 503 storm maxRetries times (3 attempts by default, 6 with maxRetries 5)", async () => {
    api = mockApi();
    const seen = { attempts: 0 };
    api.pool
      .intercept(LOOKUP)
      .reply(() => {
        seen.attempts++;
        return { statusCode: 503, data: problem(503, "unavailable"), responseOptions: { headers: PROBLEM_HEADERS } };
      })
      .persist();
    const first = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as InternalServerError;
    expect(first).toBeInstanceOf(InternalServerError);
    expect(first.status).toBe(503);
    expect(first.code).toBe("unavailable");
    expect(seen.attempts).toBe(3);

    seen.attempts = 0;
    await expect(api.client.iccid.lookup(ICCID, { maxRetries: 5 })).rejects.toBeInstanceOf(InternalServerError);
    expect(seen.attempts).toBe(6);

    seen.attempts = 0;
    await expect(api.client.iccid.lookup(ICCID, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(seen.attempts).toBe(1);
  });

  it("retries 408 and 500 but not other 4xx", async () => {
    api = mockApi();
    api.pool.intercept(LOOKUP).reply(408, "", {});
    api.pool.intercept(LOOKUP).reply(500, problem(500, "internal_error"), { headers: PROBLEM_HEADERS });
    api.pool.intercept(LOOKUP).reply(200, lookupResult(ICCID), { headers: JSON_HEADERS });
    await expect(api.client.iccid.lookup(ICCID)).resolves.toMatchObject({ iccid: ICCID });
    api.agent.assertNoPendingInterceptors();

    const seen = { attempts: 0 };
    api.pool
      .intercept(LOOKUP)
      .reply(() => {
        seen.attempts++;
        return { statusCode: 422, data: problem(422, "invalid_input", { errors: [{ pointer: "/iccid", code: "invalid_mii", detail: "x" }] }), responseOptions: { headers: PROBLEM_HEADERS } };
      })
      .persist();
    const error = (await api.client.iccid.lookup("12").catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.errors).toEqual([{ pointer: "/iccid", code: "invalid_mii", detail: "x" }]);
    expect(seen.attempts).toBe(1);
  });

  it("retries POST /keys, lookups and batches with the same Idempotency-Key on every attempt", async () => {
    api = mockApi();
    const keys: string[] = [];
    const unavailable = (opts: { headers?: unknown }) => {
      keys.push(String((opts.headers as Record<string, string>)["idempotency-key"]));
      return { statusCode: 503, data: problem(503, "unavailable"), responseOptions: { headers: PROBLEM_HEADERS } };
    };
    api.pool.intercept({ path: "/api/v1/keys", method: "POST" }).reply(unavailable).persist();
    api.pool.intercept(LOOKUP).reply(unavailable).persist();
    await expect(api.client.keys.create({ name: "ci" }, { maxRetries: 2 })).rejects.toBeInstanceOf(InternalServerError);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await expect(api.client.iccid.lookup(ICCID, { maxRetries: 1, idempotencyKey: "mine-1" })).rejects.toBeInstanceOf(InternalServerError);
    expect(keys.slice(3)).toEqual(["mine-1", "mine-1"]);
    await expect(api.client.iccid.lookup(ICCID, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(keys[5]).not.toBe(keys[0]); // a new call, a new key
  });

  it("never retries keys.roll (retry: false), even on a 503 with maxRetries: 5", async () => {
    api = mockApi();
    const seen = { attempts: 0 };
    api.pool
      .intercept({ path: "/api/v1/keys/k1/roll", method: "POST" })
      .reply(() => {
        seen.attempts++;
        return { statusCode: 503, data: problem(503, "unavailable"), responseOptions: { headers: PROBLEM_HEADERS } };
      })
      .persist();
    await expect(api.client.keys.roll("k1", {}, { maxRetries: 5 })).rejects.toBeInstanceOf(InternalServerError);
    expect(seen.attempts).toBe(1);
  });

  it("refuses a malformed idempotencyKey before sending anything", async () => {
    api = mockApi();
    for (const key of ["", "x".repeat(256), "caf\u00e9"]) {
      await expect(api.client.iccid.lookup(ICCID, { idempotencyKey: key })).rejects.toThrow("idempotencyKey must be 1 to 255 printable ASCII characters");
    }
  });

  it("retries a 409 idempotency_key_in_use after its Retry-After and gets the first request's answer", async () => {
    api = mockApi();
    const seen = { attempts: 0 };
    api.pool
      .intercept(LOOKUP)
      .reply(() => {
        seen.attempts++;
        if (seen.attempts === 1) {
          return { statusCode: 409, data: problem(409, "idempotency_key_in_use") as object, responseOptions: { headers: { ...PROBLEM_HEADERS, "retry-after": "0" } } };
        }
        return { statusCode: 200, data: lookupResult(ICCID) as object, responseOptions: { headers: { ...JSON_HEADERS, "idempotent-replayed": "true" } } };
      })
      .persist();
    expect((await api.client.iccid.lookup(ICCID)).iccid).toBe(lookupResult(ICCID).iccid);
    expect(seen.attempts).toBe(2);
  });
});
