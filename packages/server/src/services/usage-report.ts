import type { Granularity, Usage, UsageBucket, UsageByKey } from "@iccid/core";
import type { RateLimitState } from "../domain/rate-limit-state.js";
import { InvalidInput } from "../domain/refusals.js";
import type { CredentialStore, KeyGrant, MeterStore, UsageSpan } from "../store/store.js";
import { addMonths, billingPeriod, floorDay, floorHour, floorMonth, rfc3339, type Clock } from "../time.js";
import { WEB_PAGE_KEY_ID, WEB_PAGE_USAGE_NAME } from "./web-page-payer.js";

/** The most buckets one read may ask for (41 days by hour, 2.7 years by day): bounds a read's cost and size. */
const MAX_BUCKETS = 1_000;
/** Periods must lie in [EARLIEST, LATEST): every bucket start then writes as an RFC 3339 time the schema accepts. */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 0, 1);
const STEP: Record<Granularity, { floor: (ms: number) => number; next: (ms: number) => number }> = {
  hour: { floor: floorHour, next: (ms) => ms + 3_600_000 },
  day: { floor: floorDay, next: (ms) => ms + 86_400_000 },
  month: { floor: floorMonth, next: (ms) => addMonths(ms, 1) },
};

export interface UsageParams {
  from?: string;
  to?: string;
  granularity: Granularity;
  group_by?: "api_key";
}

/**
 * Whose usage a report is about. A Bearer key's payer is one; the account page builds one from its session
 * (the report never looks at which key asked).
 */
export type PayingAccount = Pick<KeyGrant, "account" | "subscription" | "plan">;

/** A bare date means midnight UTC of that day. */
function instant(value: string): number {
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}

/** Most lookups first; keys with as many in key id order, so that an answer does not depend on the store's. */
function mostLookupsFirst(a: UsageByKey, b: UsageByKey): number {
  return b.lookups - a.lookups || (a.key_id < b.key_id ? -1 : a.key_id > b.key_id ? 1 : 0);
}

/** The usage report: period, subscription, quota, rate limit, totals, series and optional per-key split. */
export class UsageReport {
  constructor(
    private readonly store: MeterStore & Pick<CredentialStore, "listKeys">,
    private readonly clock: Clock,
  ) {}

  async build(payer: PayingAccount, params: UsageParams, rateLimit: RateLimitState): Promise<Usage> {
    const now = this.clock.now();
    const current = billingPeriod(payer.subscription.period_anchor, now);
    const from = params.from === undefined ? current.start : instant(params.from);
    const to = params.to === undefined ? current.end : instant(params.to);
    for (const [field, value] of [["from", from], ["to", to]] as const) {
      if (!(value >= EARLIEST && value <= LATEST)) {
        throw new InvalidInput([{ field: [field], code: "out_of_range", detail: "must lie between 1970-01-01 and 9999-01-01" }]);
      }
    }
    // Usage is kept by the hour: a bound inside an hour could only be answered with the whole hour's counts.
    for (const [field, given, value] of [["from", params.from, from], ["to", params.to, to]] as const) {
      if (given !== undefined && floorHour(value) !== value) {
        throw new InvalidInput(
          [{ field: [field], code: "not_on_hour", detail: "must be on a whole hour (usage is counted by the hour), like 2026-11-05T04:00:00Z" }],
          `${field}: must be on a whole hour; usage is counted by the hour`,
        );
      }
    }
    if (!(from < to)) {
      throw new InvalidInput([{ field: ["to"], code: "invalid_range", detail: "must be later than from" }]);
    }
    const step = STEP[params.granularity];
    // Usage rows are hours: the first bucket sums from the hour `from` falls in, the last up to `to`.
    const first = floorHour(from);
    const series: UsageBucket[] = [];
    const spans: UsageSpan[] = [];
    for (let start = step.floor(from); start < to; start = step.next(start)) {
      if (series.length === MAX_BUCKETS) {
        throw new InvalidInput(
          [{ field: ["granularity"], code: "too_many_buckets", detail: "choose a coarser granularity or a shorter period" }],
          `granularity: the period spans more than ${MAX_BUCKETS} buckets`,
        );
      }
      series.push({ start: rfc3339(start), requests: 0, lookups: 0 });
      spans.push({ from: Math.max(start, first), to: Math.min(step.next(start), to) });
    }

    const [sums, used, keys] = await Promise.all([
      this.store.usageSums(payer.account.id, spans),
      this.store.quotaUsed(payer.account.id, current.start),
      params.group_by === "api_key" ? this.store.listKeys(payer.account.id) : Promise.resolve([]),
    ]);
    const keyNames = new Map(keys.map((k) => [k.id, k.name]));
    const totals = { requests: 0, lookups: 0 };
    const byKey = new Map<string, UsageByKey>();
    for (const sum of sums) {
      totals.requests += sum.requests;
      totals.lookups += sum.lookups;
      const bucket = series[sum.bucket]!;
      bucket.requests += sum.requests;
      bucket.lookups += sum.lookups;
      if (params.group_by === "api_key") {
        let entry = byKey.get(sum.key_id);
        if (!entry) {
          const name = keyNames.get(sum.key_id) ?? (sum.key_id === WEB_PAGE_KEY_ID ? WEB_PAGE_USAGE_NAME : null);
          entry = { key_id: sum.key_id, name, requests: 0, lookups: 0 };
          byKey.set(sum.key_id, entry);
        }
        entry.requests += sum.requests;
        entry.lookups += sum.lookups;
      }
    }

    const limit = payer.plan.monthly_lookups;
    return {
      period: { from: rfc3339(from), to: rfc3339(to) },
      subscription: {
        status: payer.subscription.status,
        plan: payer.plan.name,
        current_period_start: rfc3339(current.start),
        current_period_end: rfc3339(current.end),
      },
      quota: { limit, used, remaining: Math.max(0, limit - used), resets_at: rfc3339(current.end) },
      rate_limit: { limit: rateLimit.limit, window_seconds: rateLimit.windowSeconds },
      totals,
      series,
      ...(params.group_by === "api_key" ? { by_key: [...byKey.values()].sort(mostLookupsFirst) } : {}),
      as_of: rfc3339(now),
    };
  }
}
