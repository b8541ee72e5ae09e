import type { Router } from "@koa/router";
import type { IccidDecoder } from "../decode/decoder.js";
import type { AppState } from "../http/state.js";
import type { AccountRateLimiter } from "../limits/rate-limit.js";
import type { ApiKeys } from "../services/api-keys.js";
import type { Lookups } from "../services/lookups.js";
import type { Sessions } from "../services/sessions.js";
import type { UsageReport } from "../services/usage-report.js";
import type { ServerSettings } from "../settings.js";
import type { Store } from "../store/store.js";

/** The services route modules are built from (assembled once in createApp). */
export interface RouteServices {
  settings: ServerSettings;
  store: Store;
  decoder: IccidDecoder;
  apiKeys: ApiKeys;
  limiter: AccountRateLimiter;
  lookups: Lookups;
  usage: UsageReport;
  sessions: Sessions;
}

export type ApiRouter = Router<AppState>;
