import { describe, expect, it } from "vitest";
import { GrantCache } from "./grant-cache.js";
import type { KeyGrant } from "./store.js";

const grant = (keyId: string): KeyGrant => ({
  key: { id: keyId, account_id: "acc", name: null, prefix: "iccid_ab", last4: "wxyz", hash: `h-${keyId}`, created_at: 0, last_used_at: null, revoked_at: null, scopes: ["lookup"], expires_at: null, replaced_by: null },
  account: { id: "acc", email: "a@example.test", password_hash: "x", created_at: 0 },
  subscription: { account_id: "acc", status: "active", plan: "standard", period_anchor: 0 },
  plan: { name: "standard", rate_limit: 10, window_seconds: 60, monthly_lookups: 100 },
});

describe("GrantCache", () => {
  it("does not keep a grant read while a change was seen (the read may predate the change)", () => {
    const cache = new GrantCache();
    const before = cache.generation;
    cache.forgetKey("k1"); // a revocation committed while the read was under way
    cache.set("h1", grant("k1"), before);
    expect(cache.get("h1")).toBeUndefined();
    cache.set("h1", grant("k1"), cache.generation);
    expect(cache.get("h1")?.key.id).toBe("k1");
  });

  it("forgets one key's grant, or all", () => {
    const cache = new GrantCache();
    cache.set("h1", grant("k1"), cache.generation);
    cache.set("h2", grant("k2"), cache.generation);
    cache.forgetKey("k1");
    expect([cache.get("h1"), cache.get("h2")?.key.id]).toEqual([undefined, "k2"]);
    cache.clear();
    expect(cache.get("h2")).toBeUndefined();
  });

  it("reads a grant again once it is older than maxAgeMs", () => {
    let now = 0;
    const cache = new GrantCache({ maxAgeMs: 1_000, now: () => now });
    cache.set("h1", grant("k1"), cache.generation);
    now = 1_000;
    expect(cache.get("h1")).toBeDefined();
    now = 1_001;
    expect(cache.get("h1")).toBeUndefined();
  });

  it("asks whether anything changed elsewhere at most every recheckMs, and drops everything when it did", () => {
    let now = 1_000;
    let asked = 0;
    let changed = false;
    const cache = new GrantCache({ recheckMs: 100, changedElsewhere: () => (asked++, changed), now: () => now });
    cache.set("h1", grant("k1"), cache.generation);
    expect(cache.get("h1")).toBeDefined();
    changed = true;
    now = 1_099;
    expect(cache.get("h1")).toBeDefined(); // within recheckMs of the last ask: not asked again
    expect(asked).toBe(1);
    now = 1_100;
    expect(cache.get("h1")).toBeUndefined();
    expect(asked).toBe(2);
  });

  it("answers nothing and keeps nothing while disabled, and starts empty when enabled again", () => {
    const cache = new GrantCache();
    cache.set("h1", grant("k1"), cache.generation);
    cache.enabled = false;
    expect(cache.get("h1")).toBeUndefined();
    cache.set("h2", grant("k2"), cache.generation);
    cache.enabled = true;
    expect([cache.get("h1"), cache.get("h2")]).toEqual([undefined, undefined]);
  });
});
