/** Usage series granularities (GET /api/v1/usage `granularity`). */
export const GRANULARITIES = ["hour", "day", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];
