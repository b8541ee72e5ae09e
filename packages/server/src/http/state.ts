import type { RateLimitState } from "../domain/rate-limit-state.js";
import type { ActiveSession } from "../services/sessions.js";
import type { KeyGrant } from "../store/store.js";

/** What middleware leaves on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  grant: KeyGrant;
  /** The account's rate state, once its key was checked: its RateLimit fields go on the answer. */
  rateLimit?: RateLimitState;
  session: ActiveSession;
}
