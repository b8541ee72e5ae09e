import type { ResponseHeaders } from "./errors.js";

// The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): structured-field lists such as
//   RateLimit-Policy: "default";q=600;w=60
//   RateLimit: "default";r=599;t=42
// A tolerant parser: a field it cannot read yields nothing rather than an error, because these fields are
// advice and must never turn a good response into a failure.

export interface RateLimitInfo {
  /** The policy name the numbers belong to (`"default"`). */
  policy: string;
  /** `q`: requests allowed per window. */
  limit: number | undefined;
  /** `w`: the window in seconds. */
  windowSeconds: number | undefined;
  /** `r`: requests left in the current window. */
  remaining: number | undefined;
  /** `t`: seconds until the window resets. */
  resetSeconds: number | undefined;
}

interface FieldItem {
  name: string;
  params: Map<string, number>;
}

function parseList(field: string | undefined): FieldItem[] {
  if (!field) return [];
  const items: FieldItem[] = [];
  for (const member of field.split(",")) {
    const [rawName, ...rawParams] = member.split(";").map((part) => part.trim());
    if (!rawName) continue;
    const name = rawName.startsWith('"') && rawName.endsWith('"') ? rawName.slice(1, -1) : rawName;
    const params = new Map<string, number>();
    for (const param of rawParams) {
      const eq = param.indexOf("=");
      if (eq <= 0) continue;
      const value = Number(param.slice(eq + 1));
      if (Number.isFinite(value)) params.set(param.slice(0, eq).trim(), value);
    }
    items.push({ name, params });
  }
  return items;
}

/** Reads `RateLimit-Policy` and `RateLimit` from lower-cased headers; undefined when neither is present. */
export function parseRateLimitFields(headers: ResponseHeaders): RateLimitInfo | undefined {
  const policies = parseList(headers["ratelimit-policy"]);
  const limits = parseList(headers["ratelimit"]);
  const current = limits[0];
  // The policy that the current numbers refer to; when the server names none, the first one.
  const policy = policies.find((p) => p.name === current?.name) ?? policies[0];
  if (!policy && !current) return undefined;
  return {
    policy: (current ?? policy)!.name,
    limit: policy?.params.get("q"),
    windowSeconds: policy?.params.get("w"),
    remaining: current?.params.get("r"),
    resetSeconds: current?.params.get("t"),
  };
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
