import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { LiveDecoder } from "./live-decoder.js";

// On a real SQLite file; the timer is set far out so that each test drives the rechecks itself.
const UK = "89441000000000000018";
let dir: string;
let store: SqliteStore;
let live: LiveDecoder | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-live-"));
  store = new SqliteStore(join(dir, "iccid.db"));
  await store.migrate();
});
afterEach(async () => {
  live?.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const issuerOf = (decoder: LiveDecoder) => {
  const outcome = decoder.current.decode(UK);
  return outcome.ok ? outcome.result.issuer : undefined;
};

describe("LiveDecoder", () => {
  it("swaps in a new decoder when the custom prefixes changed, and only then", async () => {
    live = await LiveDecoder.load(store, { recheckMs: 3_600_000 });
    expect(issuerOf(live)?.origin).toBe("itu-e118");
    expect(await live.refresh()).toBe(false);

    await store.upsertCustomPrefixes([{ prefix: "894410", name: "Our MVNO", country_iso2: "GB" }]);
    const before = live.current;
    expect(await live.refresh()).toBe(true);
    expect(issuerOf(live)).toMatchObject({ name: "Our MVNO", origin: "custom" });
    expect(live.current).not.toBe(before);
    expect(await live.refresh()).toBe(false);

    expect(await store.removeCustomPrefixes(["894410", "8999999"])).toBe(1);
    expect(await live.refresh()).toBe(true);
    expect(issuerOf(live)?.origin).toBe("itu-e118");
  });

  it("sees a change to a prefix's name, not only to the set of prefixes", async () => {
    await store.upsertCustomPrefixes([{ prefix: "894410", name: "Old name", country_iso2: null }]);
    live = await LiveDecoder.load(store, { recheckMs: 3_600_000 });
    await store.upsertCustomPrefixes([{ prefix: "894410", name: "New name", country_iso2: null }]);
    expect(await live.refresh()).toBe(true);
    expect(issuerOf(live)?.name).toBe("New name");
  });

  it("keeps answering with the last decoder when the store cannot be read", async () => {
    const errors: unknown[] = [];
    live = await LiveDecoder.load(store, { recheckMs: 3_600_000, onError: (error) => errors.push(error) });
    const current = live.current;
    await store.close();
    expect(await live.refresh()).toBe(false);
    expect(errors).toHaveLength(1);
    expect(live.current).toBe(current);
  });
});
