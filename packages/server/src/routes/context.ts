import type { DecoderSource } from "../decode/live-decoder.js";
import type { AccountRateLimiter, UsageReadLimit } from "../limits/rate-limit.js";
import type { ApiKeys } from "../services/api-keys.js";
import type { AuditTrail } from "../services/audit-trail.js";
import type { IdempotentRequests } from "../services/idempotent-requests.js";
import type { EidLookups } from "../services/eid-lookups.js";
import type { Lookups } from "../services/lookups.js";
import type { Readiness } from "../services/readiness.js";
import type { Sessions } from "../services/sessions.js";
import type { UsageReport } from "../services/usage-report.js";
import type { ServerSettings } from "../settings.js";
import type { Store } from "../store/store.js";

/** The services route modules are built from (assembled once in createApp). */
export interface RouteServices {
  settings: ServerSettings;
  store: Store;
  /** An IccidDecoder, or a LiveDecoder that follows the custom prefixes. */
  decoder: DecoderSource;
  apiKeys: ApiKeys;
  audit: AuditTrail;
  limiter: AccountRateLimiter;
  usageReads: UsageReadLimit;
  lookups: Lookups;
  eidLookups: EidLookups;
  usage: UsageReport;
  sessions: Sessions;
  readiness: Readiness;
  idempotentRequests: IdempotentRequests;
  /**
   * The OpenAPI document as served, serialised once. createApp builds it from the route table and hands it
   * in: the route that serves it is in that table, so it cannot import the table itself.
   */
  apiDocument: string;
}
