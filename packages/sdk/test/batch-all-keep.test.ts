import { afterEach, describe, expect, it } from "vitest";
import { APIUserAbortError, IccidClient, QuotaExceededError, type BatchAllItem } from "../src/index.js";
import { startFakeBatchServer, type FakeBatchServer } from "./fake-batch-server.js";
import { iccidFor } from "./iccids.js";
import { KEY } from "./mock-api.js";

// batchAllChunks for a caller that must lose nothing the server charged (`iccid batch`): chunks cut where
// the caller says, in-flight requests awaited when the stream ends early, and the answered ones kept.

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

const blocks = (sizes: number[]) => {
  let at = 0;
  return sizes.map((n) => Array.from({ length: n }, () => iccidFor(at++)));
};
const starts = (chunks: BatchAllItem[][]) => chunks.map((items) => items[0]!.index);

describe("batchAllChunks with keep", () => {
  it("sends each array as one request when arraysAreChunks is set, empty ones passed over", async () => {
    const { server, client } = await setUp();
    const got: BatchAllItem[][] = [];
    for await (const items of client.iccid.batchAllChunks(blocks([30, 0, 100, 7]), { arraysAreChunks: true, chunkSize: 100 })) got.push(items);
    expect(got.map((items) => items.length)).toEqual([30, 100, 7]);
    expect(starts(got)).toEqual([0, 30, 130]);
    expect(server.stats.items.map((iccids) => iccids.length).sort()).toEqual([100, 30, 7].sort());
  });

  it("on a refusal starts nothing new, awaits every request in flight, hands out up to the gap and keeps the rest", async () => {
    // Chunk 2 of 10 is refused at once, before chunks 0 and 1 are answered; chunks 3 to 5 answer last.
    const { server, client } = await setUp({
      answer: (iccids) => {
        const chunk = Number(iccids[0]!.slice(-5, -1)) / 10;
        if (chunk === 2) return { status: 429, body: { code: "quota_exceeded", status: 429, detail: "used up", resets_at: "2026-12-01T00:00:00Z" } };
        return { delayMs: chunk >= 3 ? 150 : 50 };
      },
    });
    const got: BatchAllItem[][] = [];
    const kept: number[] = [];
    const error = await (async () => {
      const options = { arraysAreChunks: true, concurrency: 6, keep: ({ start }: { start: number }) => kept.push(start) };
      for await (const items of client.iccid.batchAllChunks(blocks(Array(10).fill(10)), options)) got.push(items);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(starts(got)).toEqual([0, 10]);
    expect(kept).toEqual([30, 40, 50]);
    expect(server.stats.requests).toBe(6);
  });

  it("once retrySignal fires sends no new chunk, hands out those on the wire, then throws APIUserAbortError", async () => {
    const { server, client } = await setUp({ delayMs: 50 });
    const stop = new AbortController();
    const got: BatchAllItem[][] = [];
    const error = await (async () => {
      const options = { arraysAreChunks: true, concurrency: 3, retrySignal: stop.signal, keep: () => {} };
      for await (const items of client.iccid.batchAllChunks(blocks(Array(10).fill(10)), options)) {
        got.push(items);
        stop.abort(new Error("interrupted"));
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    // The first chunk stopped the run; the two on the wire with it are handed out, nothing more is sent.
    expect(starts(got)).toEqual([0, 10, 20, 30]);
    expect(server.stats.requests).toBe(4);
  });
});
