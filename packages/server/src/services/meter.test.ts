import { describe, expect, it } from "vitest";
import type { Charge, ChargeOutcome, KeyGrant, MeterStore } from "../store/store.js";
import { QuotaExceeded } from "../domain/refusals.js";
import { Meter } from "./meter.js";

/** A store that records what it is asked to charge and lets everything through (or nothing). */
function recordingStore(charged = true): MeterStore & { charges: Charge[] } {
  const charges: Charge[] = [];
  return {
    charges,
    async charge(c: Charge): Promise<ChargeOutcome> {
      charges.push(c);
      return { charged, used: charged ? c.lookups : 90 };
    },
    quotaUsed: async () => 0,
    usageSums: async () => [],
  };
}

const ANCHOR = Date.UTC(2026, 0, 31, 12); // clamped to the month's last day in short months
const payer = {
  key: { id: "key_1" },
  account: { id: "acc_1" },
  subscription: { period_anchor: ANCHOR },
  plan: { monthly_lookups: 100 },
} as unknown as KeyGrant;

describe("Meter", () => {
  it("charges each request in the billing period that holds it, across period ends and back again", async () => {
    let now = Date.UTC(2026, 1, 28, 11, 59);
    const store = recordingStore();
    const meter = new Meter(store, { now: () => now });
    await meter.charge(payer, 1); // the period that began on 31 January
    now = Date.UTC(2026, 1, 28, 12); // the anchor's day clamped to 28 February: a new period
    await meter.charge(payer, 1);
    now = Date.UTC(2026, 1, 10); // a clock set back: the earlier period again
    await meter.charge(payer, 1);
    expect(store.charges.map((c) => c.period_start)).toEqual([ANCHOR, Date.UTC(2026, 1, 28, 12), ANCHOR]);
  });

  it("refuses past the quota with what is left and when the period ends", async () => {
    const now = Date.UTC(2026, 2, 5);
    const meter = new Meter(recordingStore(false), { now: () => now });
    const refusal = await meter.charge(payer, 20).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(QuotaExceeded);
    expect(refusal).toMatchObject({ remaining: 10, limit: 100, resetsAt: Date.UTC(2026, 2, 31, 12) });
  });
});
