import type { Granularity } from "../granularity.js";

/** `GET /api/v1/usage`'s query. */
export interface UsageQuery {
  /** Inclusive start, a date (`2026-11-01`) or an RFC 3339 timestamp; default: the current subscription period. */
  from?: string;
  /** Exclusive end, a date or an RFC 3339 timestamp; default: the current subscription period. */
  to?: string;
  /** The series' bucket size; default `day`. */
  granularity?: Granularity;
  /** `api_key` adds `by_key` to the answer. */
  group_by?: "api_key";
}

/** A subscription's state. */
export type SubscriptionStatus = "active" | "canceled" | "past_due";

/** The account's subscription. */
export interface Subscription {
  /** Only `active` subscriptions may look up. */
  status: SubscriptionStatus;
  /** The plan's name. */
  plan: string;
  /** When the current period began (RFC 3339, UTC). */
  current_period_start: string;
  /** When the current period ends and the quota resets (RFC 3339, UTC). */
  current_period_end: string;
}

/** One bucket of the usage series. */
export interface UsageBucket {
  /** The bucket's start (RFC 3339, UTC). */
  start: string;
  /** Charged requests in the bucket. */
  requests: number;
  /** Lookups charged in the bucket. */
  lookups: number;
}

/** One API key's share of the period (`group_by=api_key`). */
export interface UsageByKey {
  /** The key's id. */
  key_id: string;
  /** The key's name, or null. */
  name: string | null;
  /** Charged requests made with the key. */
  requests: number;
  /** Lookups charged to the key. */
  lookups: number;
}

/** `GET /api/v1/usage`'s answer. */
export interface Usage {
  /** The window the totals and series cover. */
  period: {
    /** Inclusive start (RFC 3339, UTC). */
    from: string;
    /** Exclusive end (RFC 3339, UTC). */
    to: string;
  };
  /** The account's subscription. */
  subscription: Subscription;
  /** The monthly quota of lookups. */
  quota: {
    /** Lookups the plan allows per period. */
    limit: number;
    /** Lookups charged this period. */
    used: number;
    /** Lookups left this period. */
    remaining: number;
    /** When the quota resets (RFC 3339, UTC). */
    resets_at: string;
  };
  /** The plan's rate limit. */
  rate_limit: {
    /** Requests allowed per window. */
    limit: number;
    /** The window's length in seconds. */
    window_seconds: number;
  };
  /** The window's totals. */
  totals: {
    /** Charged requests. */
    requests: number;
    /** Lookups charged. */
    lookups: number;
  };
  /** One bucket per `granularity` step of the window, oldest first. */
  series: UsageBucket[];
  /** Present when `group_by=api_key`: each key's share. */
  by_key?: UsageByKey[];
  /** When the figures were read (RFC 3339, UTC). */
  as_of: string;
}
