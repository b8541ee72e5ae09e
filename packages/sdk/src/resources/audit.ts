import { AuditPage as AuditPageSchema } from "../response-schemas.js";
import type { AuditEvent, AuditPage, AuditQuery } from "@iccid/core/types";
import type { IccidClient, RequestOptions } from "../client.js";

/** The signed-in account's audit trail (needs `client.session.login` first). */
export class AuditResource {
  constructor(private readonly client: IccidClient) {}

  /**
   * One page of events, newest first: `limit` 1 to 100 (default 50); `cursor` the `next_cursor` of the
   * page before, which is null on the last page.
   */
  list(params: AuditQuery = {}, options?: RequestOptions): Promise<AuditPage> {
    const query = new URLSearchParams();
    if (params.limit !== undefined) query.set("limit", String(params.limit));
    if (params.cursor !== undefined) query.set("cursor", params.cursor);
    return this.client.call({ method: "GET", path: "/audit", query, auth: "session", schema: AuditPageSchema }, options);
  }

  /** Every event, newest first, fetched a page at a time as the loop asks for them. */
  async *all(params: Omit<AuditQuery, "cursor"> = {}, options?: RequestOptions): AsyncGenerator<AuditEvent> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...params, ...(cursor === undefined ? {} : { cursor }) }, options);
      yield* page.events;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }
}
