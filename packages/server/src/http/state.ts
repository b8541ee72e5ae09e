import type { RateLimitState } from "../domain/rate-limit-state.js";
import type { ClaimedRequest } from "../services/idempotent-requests.js";
import type { ActiveSession } from "../services/sessions.js";
import type { Payer } from "../store/store.js";
import type { CsvForm } from "./batch-answer.js";

/** What the route table says a route answers when it succeeds: its status, and its CSV form if it has one (a batch's). */
export interface DeclaredAnswer {
  status: number;
  csv?: CsvForm<never>;
}

/** What middleware leaves on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  /** The matched route's path as declared (`/api/v1/keys/:id`), for logs and metrics: never the path as sent. */
  route?: string;
  /** What the matched route answers when it succeeds (set by its first step, read by the answer writer). */
  declared?: DeclaredAnswer;
  /** Who the request is charged to: the Bearer key's account and key, or the account page's session on the lookup routes. */
  payer: Payer;
  /** The account's rate state, once its key was checked: its RateLimit fields go on the answer. */
  rateLimit?: RateLimitState;
  session: ActiveSession;
  /** A request sent with an Idempotency-Key: its claim, which its charge is made with (http/idempotency.ts). */
  claimed?: ClaimedRequest;
}
