import { lookupRowCsv, parseIccid } from "@iccid/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  APIUserAbortError,
  IccidClient,
  QuotaExceededError,
  ResponseValidationError,
  type BatchAllItem,
  type BatchAllProgress,
} from "../src/index.js";
import { startFakeBatchServer, type FakeBatchServer } from "./fake-batch-server.js";
import { iccidFor } from "./iccids.js";
import { batchAnswer, KEY, mockApi } from "./mock-api.js";

const BAD = ["", "12AB", "8944 10", "89XYZ", "8944100000000000000000000018"];
/** Every 97th item is malformed (cycling through the grammar errors); the rest are distinct valid ICCIDs. */
const itemAt = (i: number) => (i % 97 === 13 ? BAD[i % BAD.length]! : iccidFor(i));

let server: FakeBatchServer | undefined;
let client: IccidClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  server = client = undefined;
});

async function setUp(options: Parameters<typeof startFakeBatchServer>[0] = {}) {
  server = await startFakeBatchServer(options);
  client = new IccidClient({ apiKey: KEY, baseUrl: server.url, retryDelays: { initialMs: 5, maxMs: 20 } });
  return { server, client };
}

describe("batchAll", () => {
  it("streams 25,000 items in input order with bounded read-ahead and bounded concurrency", { timeout: 120_000 }, async () => {
    const { server, client } = await setUp({ delayMs: 15 });
    const total = 25_000;
    const concurrency = 4;
    const chunkSize = 1000;
    let pulled = 0;
    let sourceClosed = false;
    async function* source() {
      try {
        for (let i = 0; i < total; i++) {
          pulled++;
          yield itemAt(i);
        }
      } finally {
        sourceClosed = true;
      }
    }
    const progress: BatchAllProgress[] = [];
    let yielded = 0;
    let maxAhead = 0;
    for await (const item of client.iccid.batchAll(source(), { concurrency, chunkSize, onProgress: (p) => progress.push(p) })) {
      expect(item.index).toBe(yielded);
      const input = itemAt(yielded);
      if (parseIccid(input).ok) {
        expect(item.ok).toBe(true);
        expect(item.ok && item.result.iccid).toBe(input);
      } else {
        expect(item).toMatchObject({ ok: false, input });
      }
      yielded++;
      maxAhead = Math.max(maxAhead, pulled - yielded);
    }
    expect(yielded).toBe(total);
    expect(sourceClosed).toBe(true);
    // Memory: never more than the window (concurrency chunks) plus the chunk being handed out was read ahead.
    expect(maxAhead).toBeLessThanOrEqual((concurrency + 1) * chunkSize);
    expect(server.stats.maxInFlight).toBeLessThanOrEqual(concurrency);
    expect(server.stats.maxInFlight).toBeGreaterThan(1); // the requests did overlap
    expect(server.stats.requests).toBe(total / chunkSize);
    // Malformed items never reached the server.
    const sent = server.stats.items.flat();
    expect(sent.every((s) => parseIccid(s).ok)).toBe(true);
    const malformed = Array.from({ length: total }, (_, i) => itemAt(i)).filter((s) => !parseIccid(s).ok).length;
    expect(sent.length).toBe(total - malformed);
    expect(progress.at(-1)).toEqual({ read: total, done: total, ok: total - malformed, failed: malformed, requests: 25 });
  });

  it("stops reading and cancels requests when the consumer breaks off", async () => {
    const { server, client } = await setUp({ delayMs: 5 });
    let pulled = 0;
    let closed = false;
    function* source() {
      try {
        for (let i = 0; i < 1_000_000; i++) {
          pulled++;
          yield iccidFor(i);
        }
      } finally {
        closed = true;
      }
    }
    let seen = 0;
    for await (const item of client.iccid.batchAll(source(), { concurrency: 2, chunkSize: 100 })) {
      expect(item.index).toBe(seen++);
      if (seen === 150) break;
    }
    expect(closed).toBe(true);
    expect(pulled).toBeLessThanOrEqual(150 + 3 * 100);
    expect(server.stats.requests).toBeLessThanOrEqual(5);
  });

  it("hands out the chunks before a failing one, then throws that chunk's error (not the aborts it caused)", async () => {
    const { client } = await setUp({
      answer: (iccids) =>
        iccids[0] === iccidFor(200)
          ? { status: 429, body: { code: "quota_exceeded", status: 429, detail: "used up", resets_at: "2026-12-01T00:00:00Z" } }
          : undefined,
    });
    const got: BatchAllItem[] = [];
    const source = Array.from({ length: 1000 }, (_, i) => iccidFor(i));
    const error = await (async () => {
      for await (const item of client.iccid.batchAll(source, { concurrency: 4, chunkSize: 100 })) got.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(got.map((i) => i.index)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it("ends with APIUserAbortError when the signal fires mid-stream", async () => {
    const { client } = await setUp({ delayMs: 5 });
    const controller = new AbortController();
    let seen = 0;
    const source = Array.from({ length: 5000 }, (_, i) => iccidFor(i));
    const error = await (async () => {
      for await (const _ of client.iccid.batchAll(source, { chunkSize: 100, signal: controller.signal })) {
        if (++seen === 250) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toBe(250);
  });

  it("retrySignal ends the chunks waiting to retry, and hands out those answered on the wire before them", async () => {
    const stop = new AbortController();
    await setUp({
      // The first chunk's answer is slow; the second is told to come back in a minute.
      answer: (iccids) =>
        iccids[0] === iccidFor(0)
          ? { delayMs: 300 }
          : { status: 429, headers: { "retry-after": "60" }, body: { code: "rate_limited", status: 429, detail: "slow down" } },
    });
    const waiting = new IccidClient({ apiKey: KEY, baseUrl: server!.url, onRetry: () => stop.abort() });
    const got: BatchAllItem[] = [];
    const source = Array.from({ length: 200 }, (_, i) => iccidFor(i));
    const error = await (async () => {
      for await (const item of waiting.iccid.batchAll(source, { concurrency: 2, chunkSize: 100, retrySignal: stop.signal })) got.push(item);
    })()
      .catch((e: unknown) => e)
      .finally(() => waiting.close());
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(got.map((i) => i.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it("gives all its requests one shared 429 back-off", async () => {
    const { client } = await setUp();
    const call = vi.spyOn(client, "callBytes");
    const source = Array.from({ length: 450 }, (_, i) => iccidFor(i));
    let count = 0;
    for await (const _ of client.iccid.batchAll(source, { chunkSize: 100, concurrency: 3 })) count++;
    expect(count).toBe(450);
    const backoffs = new Set(call.mock.calls.map(([spec]) => spec.backoff));
    expect(call).toHaveBeenCalledTimes(5);
    expect(backoffs.size).toBe(1);
    expect([...backoffs][0]).toBeDefined();
  });

  it("hands out every item read before the source failed, then throws the source's error", async () => {
    const { client } = await setUp();
    async function* source() {
      for (let i = 0; i < 250; i++) yield iccidFor(i);
      throw new Error("disk read failed");
    }
    const got: number[] = [];
    const error = await (async () => {
      for await (const item of client.iccid.batchAll(source(), { chunkSize: 100, concurrency: 1 })) got.push(item.index);
    })().catch((e: unknown) => e);
    expect((error as Error).message).toBe("disk read failed");
    expect(got).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  it("answers malformed-only input offline, without a request", async () => {
    const api = mockApi(); // no interceptors and no network: any request would fail
    try {
      const items: BatchAllItem[] = [];
      for await (const item of api.client.iccid.batchAll(["", "12AB", "89ABCG"], { chunkSize: 2 })) items.push(item);
      expect(items).toEqual([
        { index: 0, ok: false, input: "", error: { code: "empty", message: expect.any(String) } },
        { index: 1, ok: false, input: "12AB", error: { code: "invalid_mii", message: expect.any(String) } },
        { index: 2, ok: false, input: "89ABCG", error: { code: "invalid_characters", message: expect.any(String) } },
      ]);
    } finally {
      await api.agent.close();
    }
  });

  it("sends an ICCID as written up to 64 characters, and its digits past that (wireInput)", async () => {
    const { server, client } = await setUp();
    const digits = iccidFor(7);
    const written = (length: number) => digits.slice(0, 4) + " ".repeat(length - digits.length) + digits.slice(4);
    const inputs = [written(64), written(65)];
    const items: BatchAllItem[] = [];
    for await (const item of client.iccid.batchAll(inputs)) items.push(item);
    expect(server.stats.items.flat()).toEqual([written(64), digits]);
    expect(items.map((item) => item.ok)).toEqual([true, true]);
  });

  it("yields nothing for an empty source and refuses out-of-range options", async () => {
    const api = mockApi();
    try {
      const none: BatchAllItem[] = [];
      for await (const item of api.client.iccid.batchAll([])) none.push(item);
      expect(none).toEqual([]);
      const consume = async (options: object) => {
        for await (const _ of api.client.iccid.batchAll(["x"], options)) void _;
      };
      await expect(consume({ chunkSize: 1001 })).rejects.toThrow(/chunkSize must be an integer from 1 to 1000/);
      await expect(consume({ concurrency: 0 })).rejects.toThrow(RangeError);
    } finally {
      await api.agent.close();
    }
  });

  it("turns an off-contract item in a batch answer into a ResponseValidationError naming the field", async () => {
    const { client } = await setUp({
      answer: (iccids) => {
        const body = batchAnswer(JSON.stringify({ iccids }));
        (body.results[7] as { result: { valid: unknown } }).result.valid = "yes";
        return { status: 200, body };
      },
    });
    const error = await (async () => {
      for await (const _ of client.iccid.batchAll(Array.from({ length: 20 }, (_, i) => iccidFor(i)))) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toContain("results[7].result.valid");
  });

  it("batchAllChunks takes arrays of any length and hands out whole chunks in order", async () => {
    const { server, client } = await setUp();
    const blocks = [Array.from({ length: 130 }, (_, i) => itemAt(i)), [], Array.from({ length: 75 }, (_, i) => itemAt(130 + i))];
    async function* source() {
      yield* blocks;
    }
    const sizes: number[] = [];
    const all: BatchAllItem[] = [];
    for await (const items of client.iccid.batchAllChunks(source(), { chunkSize: 100 })) {
      sizes.push(items.length);
      all.push(...items);
    }
    expect(sizes).toEqual([100, 100, 5]);
    expect(all.map((i) => i.index)).toEqual(Array.from({ length: 205 }, (_, i) => i));
    for (const item of all) expect(item.ok ? item.result.input : item.input).toBe(itemAt(item.index));
    expect(server.stats.requests).toBe(3);
  });

  it("batchAllCsv asks for CSV, and makes the same rows of a JSON answer (a server older than the CSV form)", async () => {
    const { server, client } = await setUp(); // answers JSON whatever the Accept, as an older server does
    const blocks = [Array.from({ length: 130 }, (_, i) => itemAt(i)), Array.from({ length: 75 }, (_, i) => itemAt(130 + i))];
    const expected: string[] = [];
    for await (const items of client.iccid.batchAllChunks(blocks, { chunkSize: 100 })) for (const item of items) expected.push(lookupRowCsv(item));
    const rows: string[] = [];
    const outcomes = new Set<string>();
    for await (const chunk of client.iccid.batchAllCsv(blocks, { chunkSize: 100 })) {
      for (let i = 0; i < chunk.length; i++) {
        rows.push(chunk.text(i));
        outcomes.add(chunk.outcome(i));
      }
    }
    expect(rows).toEqual(expected);
    expect(outcomes).toEqual(new Set(["valid", "failed"]));
    expect(server.stats.accepts.slice(-3)).toEqual(["text/csv", "text/csv", "text/csv"]);
  });
});
