import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { IccidDecoder } from "../src/decode/decoder.js";
import { listen } from "../src/http-server.js";
import { ServerMetrics } from "../src/metrics/prometheus.js";
import { Accounts } from "../src/services/accounts.js";
import { ApiKeys } from "../src/services/api-keys.js";
import { DEFAULT_PLAN } from "../src/settings.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { systemClock } from "../src/time.js";
import { killServerProcesses, ownerCredentials, startServerProcess, stopServerProcess } from "../test-support/index.js";
import { call } from "./http.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-metrics-"));
});
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

/** The value of one sample line of a Prometheus text exposition, or undefined when it is absent. */
function sample(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe("Prometheus metrics", () => {
  it("are off unless asked for, and then served on their own port: requests, latency, lookups charged", async () => {
    const plain = await startServerProcess(join(dir, "off.db"));
    try {
      expect(plain.stdout()).not.toMatch(/"metrics"/);
      expect((await call(plain.url, "GET", "/metrics")).status).toBe(404);
    } finally {
      await stopServerProcess(plain);
    }

    const server = await startServerProcess(join(dir, "on.db"), { args: ["--metrics-port", "0"] });
    try {
      const scrapeUrl = /"metrics":"(http:[^"]+)"/.exec(server.stdout())![1]!;
      expect(new URL(scrapeUrl).port).not.toBe(String(server.port));
      expect((await call(server.url, "GET", "/metrics")).status).toBe(404); // never on the API's port
      const { key } = await ownerCredentials(server);
      expect((await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } })).status).toBe(200);
      const batch = { iccids: ["89441000000000000018", "8944 1000 0000 0000 0018", "89014103211118510720", "12AB"] };
      expect((await call(server.url, "POST", "/api/v1/iccid/batch", { key, body: batch })).status).toBe(200);
      expect((await call(server.url, "DELETE", "/api/v1/keys/key_nothing")).status).toBe(401);

      const scrape = await fetch(scrapeUrl);
      expect(scrape.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await scrape.text();
      expect(sample(text, 'iccid_http_requests_total{route="/api/v1/iccid/lookup",method="POST",status="200"}')).toBe(1);
      expect(sample(text, 'iccid_http_requests_total{route="/api/v1/keys/:id",method="DELETE",status="401"}')).toBe(1);
      expect(sample(text, 'iccid_http_request_duration_seconds_count{route="/api/v1/iccid/batch",method="POST",status="200"}')).toBe(1);
      expect(sample(text, "iccid_lookups_charged_total")).toBe(3); // 1 + the batch's two distinct good ICCIDs
      expect(sample(text, "iccid_store_errors_total")).toBe(0);
      expect(text).toMatch(/^process_cpu_user_seconds_total /m);
      expect(text).not.toContain(key);
    } finally {
      await stopServerProcess(server);
    }
  });

  it("count requests the store could not serve", async () => {
    const store = new SqliteStore(join(dir, "faulty.db"));
    await store.migrate();
    await store.upsertPlan(DEFAULT_PLAN);
    const account = await new Accounts(store, systemClock).create({ email: "m@example.test", password: "metrics-password", plan: "standard" });
    const { key } = await new ApiKeys(store, systemClock).create(account.id, null);
    const metrics = new ServerMetrics({ processMetrics: false });
    const running = await listen(createApp({ store, decoder: new IccidDecoder(), metrics }), { host: "127.0.0.1", port: 0, store });
    try {
      await store.close(); // the store is gone
      const answer = await call(running.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: "89441000000000000018" } });
      expect(answer.status).toBe(503);
      const text = await metrics.registry.metrics();
      expect(sample(text, "iccid_store_errors_total")).toBe(1);
      expect(sample(text, 'iccid_http_requests_total{route="/api/v1/iccid/lookup",method="POST",status="503"}')).toBe(1);
    } finally {
      await running.close();
    }
  });
});
