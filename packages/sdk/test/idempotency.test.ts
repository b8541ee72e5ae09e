import { luhnCheckDigit } from "@iccid/core";
import { TcpRelay } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IccidClient, isIdempotencyKeyReusedError, isKeyAlreadyCreatedError } from "../src/index.js";
import { useRealServer } from "./real-server.js";

// The SDK's Idempotency-Key against a real server: an answer lost on the way back is asked for again with
// the same key and answered from what the server kept, charged once.
const real = useRealServer();
let relay: TcpRelay;
const withCheck = (body: string) => body + luhnCheckDigit(body);
const iccids = Array.from({ length: 500 }, (_, i) => withCheck(`8944100000${String(i).padStart(8, "0")}`));

beforeAll(async () => {
  const { hostname, port } = new URL(real.server.url);
  relay = await TcpRelay.start(hostname, Number(port));
});
afterAll(() => relay?.close());

async function usedBy(apiKey: string): Promise<{ requests: number; lookups: number }> {
  return (await real.client({ apiKey }).usage.get()).totals;
}

describe("idempotency keys", () => {
  it("a batch whose answer is cut after the server charged it is retried and charged once", async () => {
    const account = await real.server.createAccount();
    const client = real.client({ apiKey: account.apiKey, baseUrl: `http://127.0.0.1:${relay.port}` });
    const sprung = relay.trapsSprung;
    relay.cutAt('"iccids"', "after");
    const answer = await client.iccid.batch(iccids);
    expect(relay.trapsSprung).toBe(sprung + 1);
    expect(answer.results).toHaveLength(500);
    expect(await usedBy(account.apiKey)).toEqual({ requests: 1, lookups: 500 });
  });

  it("a caller's own key makes a call again later without paying twice; another body under it is refused", async () => {
    const account = await real.server.createAccount();
    const client = real.client({ apiKey: account.apiKey });
    const first = await client.iccid.lookup(iccids[0]!, { idempotencyKey: "order-17" });
    const again = await client.iccid.lookup(iccids[0]!, { idempotencyKey: "order-17" });
    expect(again).toEqual(first);
    const other = await client.iccid.lookup(iccids[1]!, { idempotencyKey: "order-17" }).catch((error: unknown) => error);
    expect(isIdempotencyKeyReusedError(other)).toBe(true);
    expect(await usedBy(account.apiKey)).toEqual({ requests: 1, lookups: 1 });
  });

  it("a key created again under the same idempotency key is a KeyAlreadyCreatedError naming it", async () => {
    const account = await real.server.createAccount();
    const client = new IccidClient({ baseUrl: real.server.url });
    try {
      await client.session.login(account.email, account.password);
      const created = await client.keys.create({ name: "ci" }, { idempotencyKey: "make-ci" });
      const replayed = await client.keys.create({ name: "ci" }, { idempotencyKey: "make-ci" }).catch((error: unknown) => error);
      expect(isKeyAlreadyCreatedError(replayed)).toBe(true);
      const { key: _secret, ...record } = created;
      expect((replayed as { record: unknown }).record).toEqual(record);
      expect((await client.keys.list()).data.filter((k) => k.name === "ci")).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
