import type { Granularity, Usage, UsageBucket, UsageByKey } from "@iccid/core";
import type { RateLimitState } from "../domain/rate-limit-state.js";
import { InvalidInput } from "../domain/refusals.js";
import type { CredentialStore, KeyGrant, MeterStore } from "../store/store.js";
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
    const series: UsageBucket[] = [];
    const index = new Map<number, UsageBucket>();
    for (let start = step.floor(from); start < to; start = step.next(start)) {
      if (series.length === MAX_BUCKETS) {
        throw new InvalidInput(
          [{ field: ["granularity"], code: "too_many_buckets", detail: "choose a coarser granularity or a shorter period" }],
          `granularity: the period spans more than ${MAX_BUCKETS} buckets`,
        );
      }
      const bucket = { start: rfc3339(start), requests: 0, lookups: 0 };
      series.push(bucket);
      index.set(start, bucket);
    }

    const [rows, used, keys] = await Promise.all([
      this.store.usageRows(payer.account.id, floorHour(from), to),
      this.store.quotaUsed(payer.account.id, current.start),
      params.group_by === "api_key" ? this.store.listKeys(payer.account.id) : Promise.resolve([]),
    ]);
    const keyNames = new Map(keys.map((k) => [k.id, k.name]));
    const totals = { requests: 0, lookups: 0 };
    const byKey = new Map<string, UsageByKey>();
    for (const row of rows) {
      totals.requests += row.requests;
      totals.lookups += row.lookups;
      const bucket = index.get(step.floor(row.bucket_start));
      if (bucket) {
        bucket.requests += row.requests;
        bucket.lookups += row.lookups;
      }
      if (params.group_by === "api_key") {
        let entry = byKey.get(row.key_id);
        if (!entry) {
          const name = keyNames.get(row.key_id) ?? (row.key_id === WEB_PAGE_KEY_ID ? WEB_PAGE_USAGE_NAME : null);
          entry = { key_id: row.key_id, name, requests: 0, lookups: 0 };
          byKey.set(row.key_id, entry);
        }
        entry.requests += row.requests;
        entry.lookups += row.lookups;
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
      ...(params.group_by === "api_key" ? { by_key: [...byKey.values()].sort((a, b) => b.lookups - a.lookups) } : {}),
      as_of: rfc3339(now),
    };
  }
}
