import { formatApiKey, parseIccid, type LookupResult } from "@iccid/core";
import { MockAgent } from "undici";
import { IccidClient, type ClientOptions } from "../src/index.js";

// Helpers for the MockAgent tests: a client wired to a mock origin, wire-shaped answers, attempt counters.

export const ORIGIN = "http://api.test";
export const KEY = formatApiKey("A".repeat(22));
export const JSON_HEADERS = { "content-type": "application/json", "x-request-id": "req_mock" };
export const PROBLEM_HEADERS = { "content-type": "application/problem+json", "x-request-id": "req_mock" };

export function mockApi(options: ClientOptions = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const client = new IccidClient({
    apiKey: KEY,
    baseUrl: ORIGIN,
    dispatcher: agent,
    // Tiny backoff so that retry tests spend their time on what they assert, not on jitter.
    retryDelays: { initialMs: 5, maxMs: 20 },
    ...options,
  });
  return { agent, pool, client };
}

/** A lookup result of the v1 shape for a well-formed ICCID (issuer data is not the point of these tests). */
export function lookupResult(input: string): LookupResult {
  const parsed = parseIccid(input);
  if (!parsed.ok) throw new Error(`fixture needs a well-formed ICCID, got ${input}`);
  const { ok: _ok, ...rest } = parsed;
  return { ...rest, calling_code: "44", country: { iso2: "GB", name: "United Kingdom" }, issuer: null, home_network: null, account_number: null, data_version: "mock" };
}

export function problem(status: number, code: string, extra: Record<string, unknown> = {}) {
  return { type: `/docs/errors#${code}`, title: code, status, code, detail: `mock ${code}`, request_id: "req_mock", ...extra };
}

/** A batch answer for the ICCIDs in a request body, in order. */
export function batchAnswer(body: unknown) {
  const { iccids } = JSON.parse(String(body)) as { iccids: string[] };
  const results = iccids.map((iccid, index) => {
    const parsed = parseIccid(iccid);
    return parsed.ok
      ? { index, ok: true as const, result: lookupResult(iccid) }
      : { index, ok: false as const, input: iccid, error: parsed.error };
  });
  const ok = results.filter((r) => r.ok).length;
  return {
    results,
    summary: { total: iccids.length, ok, failed: iccids.length - ok, valid: ok, invalid: 0, unique: new Set(iccids).size },
  };
}

