import { Usage as UsageSchema } from "../response-schemas.js";
import type { Usage, UsageQuery } from "@iccid/core/types";
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

/** Quota, rate limit and metered usage. Calling it costs no quota. */
export class UsageResource {
  constructor(private readonly client: IccidClient) {}

  /** The usage of the API key's account (`GET /usage`). */
  get(params: UsageParams = {}, options?: RequestOptions): Promise<Usage> {
    return this.client.call({ method: "GET", path: "/usage", query: toQuery(params), auth: "api_key", schema: UsageSchema }, options);
  }

  /** The same report for the signed-in account (`GET /account/usage`, web session), as the account page shows it. */
  forSession(params: UsageParams = {}, options?: RequestOptions): Promise<Usage> {
    return this.client.call({ method: "GET", path: "/account/usage", query: toQuery(params), auth: "session", schema: UsageSchema }, options);
  }
}
