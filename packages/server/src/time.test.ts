import { describe, expect, it } from "vitest";
import { addMonths, billingPeriod, floorDay, floorHour, floorMonth, rfc3339 } from "./time.js";

const at = (iso: string) => Date.parse(iso);

describe("time", () => {
  it("writes RFC 3339 UTC without fractions", () => {
    expect(rfc3339(at("2026-11-21T04:00:00.789Z"))).toBe("2026-11-21T04:00:00Z");
  });

  it("floors to hour, day and month", () => {
    const t = at("2026-11-21T04:35:12Z");
    expect(rfc3339(floorHour(t))).toBe("2026-11-21T04:00:00Z");
    expect(rfc3339(floorDay(t))).toBe("2026-11-21T00:00:00Z");
    expect(rfc3339(floorMonth(t))).toBe("2026-11-01T00:00:00Z");
  });

  it("adds months keeping the anchor day, clamped to short months", () => {
    expect(rfc3339(addMonths(at("2026-01-31T10:00:00Z"), 1))).toBe("2026-02-28T10:00:00Z");
    expect(rfc3339(addMonths(at("2026-01-31T10:00:00Z"), 2))).toBe("2026-03-31T10:00:00Z");
    expect(rfc3339(addMonths(at("2026-11-15T00:00:00Z"), 2))).toBe("2027-01-15T00:00:00Z");
  });

  it("finds the billing period around now", () => {
    const anchor = at("2026-01-31T10:00:00Z");
    const p = billingPeriod(anchor, at("2026-03-01T00:00:00Z"));
    expect([rfc3339(p.start), rfc3339(p.end)]).toEqual(["2026-02-28T10:00:00Z", "2026-03-31T10:00:00Z"]);
    const q = billingPeriod(anchor, at("2026-03-31T10:00:00Z"));
    expect(rfc3339(q.start)).toBe("2026-03-31T10:00:00Z");
    const first = billingPeriod(anchor, anchor);
    expect(first.start).toBe(anchor);
  });
});
