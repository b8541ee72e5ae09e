import { z } from "zod";
import { GRANULARITIES } from "../granularity.js";
import { Timestamp } from "./common.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/usage.js";


const DateOrTimestamp = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: "must be a date (2026-11-01) or an RFC 3339 timestamp",
});

export const UsageQuery = z
  .strictObject({
    from: DateOrTimestamp.optional().describe("Inclusive start; default: the current subscription period"),
    to: DateOrTimestamp.optional().describe("Exclusive end; default: the current subscription period"),
    granularity: z.enum(GRANULARITIES).default("day"),
    group_by: z.enum(["api_key"]).optional(),
  })
  .register(apiSchemas, { id: "UsageQuery" });

export const SubscriptionStatus = z.enum(["active", "canceled", "past_due"]);

export const Subscription = z
  .object({
    status: SubscriptionStatus,
    plan: z.string(),
    current_period_start: Timestamp,
    current_period_end: Timestamp,
  })
  .register(apiSchemas, { id: "Subscription" });

export const UsageBucket = z.object({ start: Timestamp, requests: z.number().int(), lookups: z.number().int() });
export const UsageByKey = z.object({
  key_id: z.string(),
  name: z.string().nullable(),
  requests: z.number().int(),
  lookups: z.number().int(),
});

export const Usage = z
  .object({
    period: z.object({ from: Timestamp, to: Timestamp }),
    subscription: Subscription,
    quota: z.object({
      limit: z.number().int(),
      used: z.number().int(),
      remaining: z.number().int(),
      resets_at: Timestamp,
    }),
    rate_limit: z.object({ limit: z.number().int(), window_seconds: z.number().int() }),
    totals: z.object({ requests: z.number().int(), lookups: z.number().int() }),
    series: z.array(UsageBucket),
    by_key: z.array(UsageByKey).optional().describe("Present when group_by=api_key"),
    as_of: Timestamp,
  })
  .register(apiSchemas, { id: "Usage" });

export type UsageQuery = Wire.UsageQuery;
export type SubscriptionStatus = Wire.SubscriptionStatus;
export type Subscription = Wire.Subscription;
export type UsageBucket = Wire.UsageBucket;
export type UsageByKey = Wire.UsageByKey;
export type Usage = Wire.Usage;
