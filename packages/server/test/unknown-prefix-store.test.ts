import { describe, expect, it } from "vitest";
import { openTestStore } from "../test-support/index.js";

// The store's own promise, on whichever store this run uses (SQLite, or PostgreSQL under ICCID_TEST_STORE):
// counts of one day and prefix added twice are one row, summed, its first and last seen widened, never narrowed.
describe("the store's unknown-prefix counts", () => {
  it("sum a day's counts of one prefix, widening its first and last seen", async () => {
    const { store, dispose } = await openTestStore();
    await store.migrate();
    try {
      const day = Date.UTC(2026, 10, 20);
      const prefix = "8999998";
      await store.addUnknownPrefixes([{ day, prefix, count: 2, first_seen: day + 5_000, last_seen: day + 6_000 }]);
      await store.addUnknownPrefixes([{ day, prefix, count: 3, first_seen: day + 1_000, last_seen: day + 9_000 }]);
      expect(await store.unknownPrefixes(day)).toEqual([{ prefix, count: 5, first_seen: day + 1_000, last_seen: day + 9_000 }]);
      // Counts seen inside the widened times add to the count and leave the times as they are.
      await store.addUnknownPrefixes([{ day, prefix, count: 1, first_seen: day + 4_000, last_seen: day + 7_000 }]);
      expect(await store.unknownPrefixes(day)).toEqual([{ prefix, count: 6, first_seen: day + 1_000, last_seen: day + 9_000 }]);
    } finally {
      await store.close();
      await dispose();
    }
  });
});
