import { afterEach, describe, expect, it } from "vitest";
import { APIConnectionError, APITimeoutError, APIUserAbortError, InternalServerError } from "../src/index.js";
import { JSON_HEADERS, PROBLEM_HEADERS, lookupResult, mockApi, problem } from "./mock-api.js";

// What a real server cannot easily be made to do: stall headers, answer slowly, be aborted mid-backoff.
// Every test counts the attempts the mock origin saw.

const ICCID = "89441000000000000018";
const LOOKUP = { path: "/api/v1/iccid/lookup", method: "POST" };
let api: ReturnType<typeof mockApi>;

afterEach(async () => {
  await api.agent.close();
});

describe("timeouts, deadline and abort", () => {
  it("times out slow headers per attempt and retries (2 attempts with maxRetries 1)", async () => {
    api = mockApi({ timeoutMs: 100, maxRetries: 1 });
    const seen = { attempts: 0 };
    api.pool
      .intercept(LOOKUP)
      .reply(() => {
        seen.attempts++;
        return { statusCode: 200, data: lookupResult(ICCID), responseOptions: { headers: JSON_HEADERS } };
      })
      .delay(3_000)
      .times(2);
    const error = (await api.client.iccid.lookup(ICCID).catch((e: unknown) => e)) as APITimeoutError;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError); // a timeout is one way of getting no answer
    expect(error.scope).toBe("attempt");
    expect(error.timeoutMs).toBe(100);
    expect(error.message).toMatch(/timed out after 100 ms talking to api\.test \(2 attempts\)/);
  });

  it("recovers when the retry after a timeout is fast", async () => {
    api = mockApi({ timeoutMs: 100 });
    api.pool.intercept(LOOKUP).reply(200, lookupResult(ICCID), { headers: JSON_HEADERS }).delay(3_000);
    api.pool.intercept(LOOKUP).reply(200, lookupResult(ICCID), { headers: JSON_HEADERS });
    await expect(api.client.iccid.lookup(ICCID)).resolves.toMatchObject({ valid: true });
  });

  it("ends the whole call at deadlineMs, and a deadline is not retried", async () => {
    api = mockApi({ timeoutMs: 10_000, maxRetries: 5 });
    api.pool.intercept(LOOKUP).reply(200, lookupResult(ICCID), { headers: JSON_HEADERS }).delay(3_000).persist();
    const error = (await api.client.iccid.lookup(ICCID, { deadlineMs: 150 }).catch((e: unknown) => e)) as APITimeoutError;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error.scope).toBe("deadline");
    expect(error.timeoutMs).toBe(150);
    expect(error.message).toContain("(1 attempt)");
  });

  it("counts retries and backoff against the deadline", async () => {
    // 503s with Retry-After 30: the first wait would pass a 10 s deadline, so the 503 itself is thrown. (The
    // deadline leaves the first attempt ample time even on a busy machine.)
    api = mockApi({ deadlineMs: 10_000 });
    const seen = { attempts: 0 };
    api.pool
      .intercept(LOOKUP)
      .reply(() => {
        seen.attempts++;
        return { statusCode: 503, data: problem(503, "unavailable"), responseOptions: { headers: { ...PROBLEM_HEADERS, "retry-after": "30" } } };
      })
      .persist();
    await expect(api.client.iccid.lookup(ICCID)).rejects.toBeInstanceOf(InternalServerError);
    expect(seen.attempts).toBe(1);
  });

  it("aborts an attempt in flight with APIUserAbortError carrying the signal's reason", async () => {
    api = mockApi();
    api.pool.intercept(LOOKUP).reply(200, lookupResult(ICCID), { headers: JSON_HEADERS }).delay(3_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user pressed ^C")), 30);
    const error = (await api.client.iccid.lookup(ICCID, { signal: controller.signal }).catch((e: unknown) => e)) as APIUserAbortError;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error.cause as Error).message).toBe("user pressed ^C");
  });

  it("aborts during a backoff wait without another attempt", async () => {
    api = mockApi();
    const seen = { attempts: 0 };
    const controller = new AbortController();
    api.pool
      .intercept(LOOKUP)
      .reply(() => {
        seen.attempts++;
        // Aborted once the first answer is out, so into its 30 s backoff however slow the machine is.
        setTimeout(() => controller.abort(), 50);
        return { statusCode: 503, data: problem(503, "unavailable"), responseOptions: { headers: { ...PROBLEM_HEADERS, "retry-after": "30" } } };
      })
      .persist();
    const pending = api.client.iccid.lookup(ICCID, { signal: controller.signal });
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(seen.attempts).toBe(1);
  });

  it("refuses at once when the signal is already aborted (no attempt)", async () => {
    api = mockApi();
    await expect(api.client.iccid.lookup(ICCID, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
  });
});
