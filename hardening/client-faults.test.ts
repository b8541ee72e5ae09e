import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { formatApiKey } from "@iccid/core";
import { IccidClient, isAPIConnectionError, isAPITimeoutError, isResponseValidationError } from "@iccid/sdk";
import { Accounts, ApiKeys, createApp, IccidDecoder, listen, SqliteStore, systemClock, type RunningServer } from "@iccid/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nthIccid } from "./support.js";

// The SDK against a server that restarts mid-batch, one that answers garbage and one that hangs.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-client-faults-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serveOn(db: string, port: number): Promise<RunningServer> {
  const store = new SqliteStore(db);
  await store.migrate();
  await store.upsertPlan({ name: "standard", rate_limit: 100_000, window_seconds: 60, monthly_lookups: 10_000_000 });
  return listen(createApp({ store, decoder: new IccidDecoder() }), { host: "127.0.0.1", port, store });
}

async function fakeServer(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("the SDK under server faults", () => {
  it("finishes a 20,000-item batchAll across a server restart, in order, with nothing lost", async () => {
    const db = join(dir, "restart.db");
    let server = await serveOn(db, 0);
    const port = server.port;
    const store = new SqliteStore(db);
    const account = await new Accounts(store, systemClock).create({ email: "sdk@example.test", password: "sdk-password-123", plan: "standard" });
    const { key } = await new ApiKeys(store, systemClock).create(account.id, null);
    await store.close();

    // Backoff is jittered: 6 retries can all fall inside a restart that is slow on a busy machine (2 workers,
    // a 3 s restart: 1 run in 200; 5 s: 1 in 20). 12 retries outlast a 10 s restart but 1 time in 50,000.
    const client = new IccidClient({ apiKey: key, baseUrl: server.url, maxRetries: 12 });
    const total = 20_000;
    let restarted = false;
    let next = 0;
    for await (const item of client.iccid.batchAll(
      (function* () {
        for (let i = 0; i < total; i++) yield nthIccid(i);
      })(),
      { concurrency: 2, chunkSize: 500 },
    )) {
      expect(item.index).toBe(next);
      expect(item.ok && item.result.iccid).toBe(nthIccid(next));
      next++;
      if (next === 3_000 && !restarted) {
        restarted = true;
        await server.close(); // the SDK now meets refused connections until the server is back
        setTimeout(() => void serveOn(db, port).then((s) => (server = s)), 400);
      }
    }
    expect(next).toBe(total);
    expect(restarted).toBe(true);
    await client.close();
    await server.close();
  });

  it("reports a server that answers garbage as a ResponseValidationError, without retrying it", async () => {
    let calls = 0;
    const { server, url } = await fakeServer((_req, res) => {
      calls++;
      res.writeHead(200, { "content-type": "application/json" }).end('{"iccid": 42, "surprise": true');
    });
    const client = new IccidClient({ apiKey: formatApiKey("a".repeat(22)), baseUrl: url });
    const error = await client.iccid.lookup("89441000000000000018").catch((e: unknown) => e);
    expect(isResponseValidationError(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/json|response|contract/i);
    expect(calls).toBe(1);
    await client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("gives up on a server that never answers with an APITimeoutError after the configured attempts", async () => {
    let calls = 0;
    const { server, url } = await fakeServer(() => {
      calls++; // never answers
    });
    const key = formatApiKey("b".repeat(22));
    const client = new IccidClient({ apiKey: key, baseUrl: url, timeoutMs: 300, maxRetries: 1 });
    const started = Date.now();
    const error = await client.iccid.lookup("89441000000000000018").catch((e: unknown) => e);
    expect(isAPITimeoutError(error)).toBe(true);
    expect(calls).toBe(2);
    // Two 300 ms attempts and a backoff, with room for a busy machine; one attempt at the 30 s default is more.
    expect(Date.now() - started).toBeLessThan(20_000);
    await client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("names the host and the likely reason when nothing listens", async () => {
    const key = formatApiKey("c".repeat(22));
    const client = new IccidClient({ apiKey: key, baseUrl: "http://127.0.0.1:9", maxRetries: 0 });
    const error = await client.iccid.lookup("89441000000000000018").catch((e: unknown) => e);
    expect(isAPIConnectionError(error)).toBe(true);
    expect((error as Error).message).toMatch(/127\.0\.0\.1:9.*refused/);
    await client.close();
  });
});
