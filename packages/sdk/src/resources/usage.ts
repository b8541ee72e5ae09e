import { Usage, type UsageQuery } from "@iccid/core";
import type { IccidClient, RequestOptions } from "../client.js";

/** `from` and `to` also take a Date (sent as an RFC 3339 UTC timestamp). */
export type UsageParams = Omit<UsageQuery, "from" | "to"> & { from?: string | Date; to?: string | Date };

function toQuery(params: UsageParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    query.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  return query;
}

/** Quota, rate limit and metered usage of the key's account. Calling it costs no quota. */
export class UsageResource {
  constructor(private readonly client: IccidClient) {}

  get(params: UsageParams = {}, options?: RequestOptions): Promise<Usage> {
    return this.client.call({ method: "GET", path: "/usage", query: toQuery(params), auth: "api_key", schema: Usage }, options);
  }
}
